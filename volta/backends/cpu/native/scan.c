/* Inclusive running sums (cumsum) of C-contiguous float32/float64 arrays seen as (outer, length,
 * inner), along the middle dim, forward or reversed (the reversed one is cumsum's backward, in
 * one pass instead of flip, cumsum, flip). Note [native kernel contract].
 *
 * Each running sum is kept in double and every output is that sum rounded to the array's dtype,
 * as PyTorch's CPU cumsum accumulates (its acc_type of float is double): results match it
 * bit for bit, and do not depend on the thread count (each scan runs on one thread, in order).
 *
 * inner == 1 (a scan along the last dim): a row's sum is one chain of dependent double adds, so
 * ROW_GROUP rows are scanned side by side, their chains independent, to keep the adder busy.
 * inner > 1: the scans run in vector lanes across inner, INNER_CHUNK columns at a time.
 */
#include "common.h"

/* Elements per thread below which one thread is faster (about 1 ns per element on one thread;
 * the OpenMP hand-off costs a few us). */
#define GRAIN_ELEMENTS 32768
#define ROW_GROUP 8
#define INNER_CHUNK 256

typedef struct {
    const void *x;
    void *out;
    Py_ssize_t length, inner, chunks;
    int reverse;
} scan_ctx;

/* Rows [begin, end) of (rows, length): ROW_GROUP at a time, a tail one by one. */
#define DEFINE_ROW_SCAN(NAME, T)                                                              \
    VOLTA_VECTOR static void NAME(void *p, Py_ssize_t begin, Py_ssize_t end) {                \
        const scan_ctx *c = p;                                                                \
        Py_ssize_t n = c->length;                                                             \
        Py_ssize_t step = c->reverse ? -1 : 1;                                                \
        Py_ssize_t first = c->reverse ? n - 1 : 0;                                            \
        Py_ssize_t i = begin;                                                                 \
        for (; i + ROW_GROUP <= end; i += ROW_GROUP) {                                        \
            const T *x = (const T *)c->x + i * n + first;                                     \
            T *o = (T *)c->out + i * n + first;                                               \
            double acc[ROW_GROUP] = {0};                                                      \
            for (Py_ssize_t j = 0; j < n; j++, x += step, o += step) {                        \
                _Pragma("GCC unroll 8") for (int r = 0; r < ROW_GROUP; r++) {                 \
                    acc[r] += (double)x[r * n];                                               \
                    o[r * n] = (T)acc[r];                                                     \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
        for (; i < end; i++) {                                                                \
            const T *x = (const T *)c->x + i * n + first;                                     \
            T *o = (T *)c->out + i * n + first;                                               \
            double acc = 0.0;                                                                 \
            for (Py_ssize_t j = 0; j < n; j++, x += step, o += step) {                        \
                acc += (double)*x;                                                            \
                *o = (T)acc;                                                                  \
            }                                                                                 \
        }                                                                                     \
    }

/* Items [begin, end) of (outer, chunks): each one INNER_CHUNK columns of one outer slice. */
#define DEFINE_INNER_SCAN(NAME, T)                                                            \
    VOLTA_VECTOR static void NAME(void *p, Py_ssize_t begin, Py_ssize_t end) {                \
        const scan_ctx *c = p;                                                                \
        Py_ssize_t n = c->length, inner = c->inner;                                           \
        double acc[INNER_CHUNK];                                                              \
        for (Py_ssize_t item = begin; item < end; item++) {                                   \
            Py_ssize_t slice = item / c->chunks, col = (item % c->chunks) * INNER_CHUNK;      \
            Py_ssize_t width = inner - col < INNER_CHUNK ? inner - col : INNER_CHUNK;         \
            for (Py_ssize_t k = 0; k < width; k++) acc[k] = 0.0;                              \
            for (Py_ssize_t j = 0; j < n; j++) {                                              \
                Py_ssize_t at = slice * n * inner + (c->reverse ? n - 1 - j : j) * inner + col; \
                const T *x = (const T *)c->x + at;                                            \
                T *o = (T *)c->out + at;                                                      \
                _Pragma("omp simd") for (Py_ssize_t k = 0; k < width; k++) {                  \
                    acc[k] += (double)x[k];                                                   \
                    o[k] = (T)acc[k];                                                         \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    }

DEFINE_ROW_SCAN(row_scan_f32, float)
DEFINE_ROW_SCAN(row_scan_f64, double)
DEFINE_INNER_SCAN(inner_scan_f32, float)
DEFINE_INNER_SCAN(inner_scan_f64, double)

static int size_arg(PyObject *obj, Py_ssize_t *value) {
    *value = PyLong_AsSsize_t(obj);
    if (*value == -1 && PyErr_Occurred()) return -1;
    if (*value < 0) {
        PyErr_SetString(PyExc_ValueError, "scan: sizes must be non-negative");
        return -1;
    }
    return 0;
}

/* cumsum(x, out, outer, length, inner, reverse, threads): out = the running sums of x, a
 * (outer, length, inner) array, along its middle dim (from the end where reverse). */
static PyObject *cumsum(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    VOLTA_CHECK_NARGS("cumsum", nargs, 7);
    Py_ssize_t outer, length, inner;
    if (size_arg(args[2], &outer) < 0 || size_arg(args[3], &length) < 0 ||
        size_arg(args[4], &inner) < 0)
        return NULL;
    int reverse = PyObject_IsTrue(args[5]);
    long threads = PyLong_AsLong(args[6]);
    if (reverse < 0 || (threads == -1 && PyErr_Occurred())) return NULL;
    if (threads < 1) threads = 1;
    if ((length && outer > PY_SSIZE_T_MAX / length) ||
        (inner && outer * length > PY_SSIZE_T_MAX / inner)) {
        PyErr_SetString(PyExc_ValueError, "scan: outer * length * inner overflows");
        return NULL;
    }
    volta_array arrays[2];
    char kind;
    if (volta_get_arrays(args, 2, 1, arrays, &kind) < 0) return NULL;
    Py_ssize_t size = outer * length * inner;
    if (arrays[0].size != size || arrays[1].size != size) {
        volta_release_arrays(arrays, 2);
        PyErr_Format(PyExc_ValueError, "scan: x and out must hold %zd elements", size);
        return NULL;
    }
    scan_ctx ctx = {arrays[0].data, arrays[1].data, length, inner, 0, reverse};
    if (size > 0) {
        Py_BEGIN_ALLOW_THREADS;
        if (inner == 1) {
            Py_ssize_t grain = length >= GRAIN_ELEMENTS ? 1 : GRAIN_ELEMENTS / length;
            volta_parallel(outer, grain, (int)threads, kind == 'f' ? row_scan_f32 : row_scan_f64,
                           &ctx);
        } else {
            ctx.chunks = (inner + INNER_CHUNK - 1) / INNER_CHUNK;
            Py_ssize_t per_item = length * (inner < INNER_CHUNK ? inner : INNER_CHUNK);
            Py_ssize_t grain = per_item >= GRAIN_ELEMENTS ? 1 : GRAIN_ELEMENTS / per_item;
            volta_parallel(outer * ctx.chunks, grain, (int)threads,
                           kind == 'f' ? inner_scan_f32 : inner_scan_f64, &ctx);
        }
        Py_END_ALLOW_THREADS;
    }
    volta_release_arrays(arrays, 2);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    VOLTA_METHOD(cumsum,
                 "out = running sums of x (outer, length, inner) along length, reversed where "
                 "asked"),
    {NULL, NULL, 0, NULL},
};

VOLTA_MODULE(scan)
