/* Row-wise kernels of float32 and float64 (rows, width) arrays, C-contiguous: softmax and
 * log_softmax and their backwards, logsumexp, layer norm and its backward, sums, means and
 * extrema of each row, the total of an array (rowwise_typed.h, stamped once per type), and the
 * NLL loss of class indices (float32) (Note [native kernel contract]). Each module function
 * takes the type of its first array and requires it of every other.
 *
 * Rows are split over threads; within a row the loops run in vector lanes.
 *
 * Sums are taken as Note [sums in blocks] (common.h) says, float64 ones in double throughout.
 * The sums of a softmax are of positive terms and stay in the element type, as PyTorch's.
 *
 * Results do not depend on the thread count: every row, column and block is summed by one
 * thread in one order.
 */
#include "common.h"

/* float64 rows take libm's exp and log: Note [float64 math through libmvec] in common.h */

/* Elements per thread below which one thread is faster; OpenMP's hand-off costs about 2 us
 * between back-to-back kernels. Measured on 1024-wide rows, 1 vs 2 threads: softmax and layer
 * norm (a few ns per element) gain from 32k elements per thread on, a plain sum or max (a
 * fraction of a ns) from about 64k (256 x 1024: 10 -> 6 us). Where the other core is busy, a
 * split waits for it up to a scheduler tick (~1 ms): another process, or volta's own Python
 * workers (parallel.py) running while this pool's idle threads still spin (GOMP_SPINCOUNT,
 * native/__init__.py; mse_loss forward+backward on 2 threads measured 1.2 ms at 20000 spins,
 * 0.26 ms at 0). */
#define GRAIN_ELEMENTS 32768
#define REDUCE_GRAIN_ELEMENTS 65536
#define TOTAL_CHUNK 8192
#define SLAB 16 /* Note [layer norm parameter gradients in slabs] (rowwise_typed.h) */

/* rows (or columns) of `width` elements per thread for a grain of `elements` */
static inline Py_ssize_t row_grain(Py_ssize_t width, Py_ssize_t elements) {
    return width >= elements ? 1 : elements / (width > 0 ? width : 1);
}

/* ---- arguments ---------------------------------------------------------------------------- */

/* rows, width and threads from args[first], args[first + 1] and the last argument */
static int shape_args(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t first, Py_ssize_t *rows,
                      Py_ssize_t *width, int *threads) {
    if (volta_arg_size(args[first], rows) < 0 || volta_arg_size(args[first + 1], width) < 0 ||
        volta_arg_threads(args[nargs - 1], threads) < 0)
        return -1;
    if (*width && *rows > PY_SSIZE_T_MAX / *width) {
        PyErr_SetString(PyExc_ValueError, "rowwise: rows * width overflows");
        return -1;
    }
    return 0;
}

/* rows of `width` split over threads for a grain of `elements` (volta_run_held) */
static PyObject *run_rows(volta_held *held, Py_ssize_t rows, Py_ssize_t width, Py_ssize_t elements,
                          int threads, volta_range_fn fn, void *ctx) {
    return volta_run_held(held, rows, row_grain(width, elements), threads, fn, ctx);
}

/* ---- the typed kernels ---------------------------------------------------------------------- */

#define T float
#define NAME(name) name##_f32
#define EXP(x) volta_expf(x)
#define LOG(x) volta_logf(x)
#define HOLD volta_hold_f32
#include "rowwise_typed.h"
#undef T
#undef NAME
#undef EXP
#undef LOG
#undef HOLD

/* float64: libm's exp and log, correctly rounded to within an ulp (float64 accuracy) */
#define T double
#define NAME(name) name##_f64
#define EXP(x) exp(x)
#define LOG(x) log(x)
#define HOLD volta_hold_f64
#include "rowwise_typed.h"
#undef T
#undef NAME
#undef EXP
#undef LOG
#undef HOLD

/* ---- module functions ----------------------------------------------------------------------- */

/* Whether args[0] is a float64 buffer: the float64 kernels take it, anything else goes to the
 * float32 ones, which check every array and raise for other types. */
static int is_float64(PyObject *obj) {
    volta_array a;
    if (volta_get_array(obj, &a, 0) < 0) {
        PyErr_Clear(); /* the float32 kernel's own check reports it */
        return 0;
    }
    int f64 = volta_float_kind(&a) == 'd';
    volta_release(&a);
    return f64;
}

#define BY_TYPE(name)                                                                  \
    static PyObject *name(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {  \
        if (nargs > 0 && is_float64(args[0])) return name##_f64(self, args, nargs);    \
        return name##_f32(self, args, nargs);                                          \
    }
BY_TYPE(softmax)
BY_TYPE(softmax_backward)
BY_TYPE(logsumexp)
BY_TYPE(row_sums)
BY_TYPE(row_extrema)
BY_TYPE(layer_norm)
BY_TYPE(layer_norm_backward)

/* total(x, threads) -> float: the sum of every element */
static PyObject *total(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("total", nargs, 2);
    int threads = (int)PyLong_AsLong(args[1]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    volta_array a;
    if (volta_get_array(args[0], &a, 0) < 0) return NULL;
    char kind = volta_float_kind(&a);
    PyObject *result = kind == 'f'   ? chunked_total_f32(a.data, NULL, a.size, threads)
                       : kind == 'd' ? chunked_total_f64(a.data, NULL, a.size, threads)
                                     : NULL;
    volta_release(&a);
    if (!kind) PyErr_SetString(PyExc_ValueError, "total: a float32 or float64 array");
    return result;
}

/* squared_error_total(a, b, threads) -> float: the sum of (a - b)^2 */
static PyObject *squared_error_total(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("squared_error_total", nargs, 3);
    int threads = (int)PyLong_AsLong(args[2]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    volta_array a[2];
    char kind;
    if (volta_get_arrays(args, 2, 2, a, &kind) < 0) return NULL;
    PyObject *result = NULL;
    if (a[0].size != a[1].size)
        PyErr_SetString(PyExc_ValueError, "squared_error_total: two float arrays of one size");
    else if (kind == 'f')
        result = chunked_total_f32(a[0].data, a[1].data, a[0].size, threads);
    else
        result = chunked_total_f64(a[0].data, a[1].data, a[0].size, threads);
    volta_release_arrays(a, 2);
    return result;
}

/* The NLL kernels pick one entry per row: one thread (the thread count argument keeps the
 * contract's shape), a pass over the targets that is short next to the input's pass. */

/* nll_loss(x, target, weight|None, out|None, rows, classes, ignore_index, threads) -> (sum of
 * the losses, sum of the targets' weights), or None where a target is neither a class nor
 * ignore_index. out (per row, for reduction "none") gets -weight[t] * x[t], 0 where ignored. */
static PyObject *nll_loss(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("nll_loss", nargs, 8);
    Py_ssize_t rows, classes;
    if (volta_arg_size(args[4], &rows) < 0 || volta_arg_size(args[5], &classes) < 0) return NULL;
    long long ignore = PyLong_AsLongLong(args[6]);
    if (ignore == -1 && PyErr_Occurred()) return NULL;
    if (classes && rows > PY_SSIZE_T_MAX / classes) return PyErr_NoMemory();
    volta_held held = {.count = 0};
    float *x, *weight, *out;
    int64_t *target;
    if (volta_hold_f32(&held, args[0], 0, rows * classes, 0, "x", &x) < 0 ||
        volta_hold(&held, args[1], 0, rows, 0, "lq", 8, "target", (void **)&target) < 0 ||
        volta_hold_f32(&held, args[2], 0, classes, 1, "weight", &weight) < 0 ||
        volta_hold_f32(&held, args[3], 1, rows, 1, "out", &out) < 0)
        return NULL;
    double loss = 0.0, weights = 0.0;
    int in_range = 1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < rows; i++) {
        int64_t t = target[i];
        if (t == ignore) {
            if (out) out[i] = 0.0f;
            continue;
        }
        if (t < 0 || t >= classes) {
            in_range = 0;
            break;
        }
        float w = weight ? weight[t] : 1.0f;
        float term = -(x[i * classes + t] * w);
        if (out) out[i] = term;
        loss += term;
        weights += w;
    }
    Py_END_ALLOW_THREADS
    volta_release_held(&held);
    if (!in_range) Py_RETURN_NONE;
    return Py_BuildValue("(dd)", loss, weights);
}

/* nll_loss_backward(target, weight|None, grad_rows|None, grad, mean, grad_input, rows, classes,
 * ignore_index, threads) -> True, or None where a target is neither a class nor ignore_index.
 * grad_input (zeros) gets -weight[t] * g at each target's class, g = grad_rows[i] (reduction
 * "none") or the scalar grad, divided by the sum of the targets' weights where mean. */
static PyObject *nll_loss_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("nll_loss_backward", nargs, 10);
    Py_ssize_t rows, classes;
    if (volta_arg_size(args[6], &rows) < 0 || volta_arg_size(args[7], &classes) < 0) return NULL;
    long long ignore = PyLong_AsLongLong(args[8]);
    if (ignore == -1 && PyErr_Occurred()) return NULL;
    double grad = PyFloat_AsDouble(args[3]);
    if (grad == -1.0 && PyErr_Occurred()) return NULL;
    int mean = PyObject_IsTrue(args[4]);
    if (mean < 0) return NULL;
    if (classes && rows > PY_SSIZE_T_MAX / classes) return PyErr_NoMemory();
    volta_held held = {.count = 0};
    float *weight, *grad_rows, *grad_input;
    int64_t *target;
    if (volta_hold(&held, args[0], 0, rows, 0, "lq", 8, "target", (void **)&target) < 0 ||
        volta_hold_f32(&held, args[1], 0, classes, 1, "weight", &weight) < 0 ||
        volta_hold_f32(&held, args[2], 0, rows, 1, "grad_rows", &grad_rows) < 0 ||
        volta_hold_f32(&held, args[5], 1, rows * classes, 0, "grad_input", &grad_input) < 0)
        return NULL;
    double weights = 0.0;
    int in_range = 1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < rows; i++) {
        int64_t t = target[i];
        if (t == ignore) continue;
        if (t < 0 || t >= classes) {
            in_range = 0;
            break;
        }
        weights += weight ? weight[t] : 1.0f;
    }
    if (in_range) {
        float scale = (float)(mean ? grad / weights : grad); /* all ignored: 0 / 0 = NaN */
        for (Py_ssize_t i = 0; i < rows; i++) {
            int64_t t = target[i];
            if (t == ignore) continue;
            float w = weight ? weight[t] : 1.0f;
            float g = grad_rows ? grad_rows[i] : scale;
            grad_input[i * classes + t] = -(w * g);
        }
    }
    Py_END_ALLOW_THREADS
    volta_release_held(&held);
    if (!in_range) Py_RETURN_NONE;
    Py_RETURN_TRUE;
}

static PyMethodDef methods[] = {
    VOLTA_METHOD(softmax, "out = softmax (log_softmax) of each row of x"),
    VOLTA_METHOD(softmax_backward, "result = the input gradient of softmax (log_softmax) by rows"),
    VOLTA_METHOD(logsumexp, "out[i] = log(sum(exp(x[i])))"),
    VOLTA_METHOD(row_sums, "out[i] = sum (mean) of x[i]"),
    VOLTA_METHOD(row_extrema, "out[i] = max (min) of x[i], NaN where it holds NaN"),
    VOLTA_METHOD(total, "the sum of every element of x"),
    VOLTA_METHOD(squared_error_total, "the sum of (a - b)^2"),
    VOLTA_METHOD(layer_norm, "layer norm of each row, with its mean and rstd"),
    VOLTA_METHOD(layer_norm_backward, "gradients of layer norm for input, weight and bias"),
    VOLTA_METHOD(nll_loss, "(loss sum, weight sum) of the NLL of class indices"),
    VOLTA_METHOD(nll_loss_backward, "the NLL loss's input gradient, scattered into zeros"),
    {NULL, NULL, 0, NULL},
};

VOLTA_MODULE(rowwise)
