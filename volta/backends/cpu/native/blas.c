/* Matrix products on volta's OpenMP threads (Note [native kernel contract] in common.h).
 *
 * Note [one thread pool]
 * numpy's OpenBLAS keeps its own pthreads, which spin for a while after every GEMM; an OpenMP
 * region right after a GEMM (a compiled relu) then waits for the core a spinning BLAS thread
 * holds, and the other way round (a 12 us relu took 350 us at 2 threads in LeNet's step). So,
 * as in PyTorch, there is one pool: OpenBLAS is set to one thread for good (parallel.py), and
 * `gemm` splits a product over OpenMP threads, each running a single-threaded BLAS call on a
 * block of the output's rows or columns (whichever dimension is larger), or, where the output
 * is small beside the contraction (a convolution's weight gradient: 6 x 25 over 57088
 * positions), on a slice of K into its own buffer, the partial products summed afterwards. A
 * batch of products too small to split (attention's heads) goes over the threads item by item.
 *
 * The BLAS functions are numpy's bundled OpenBLAS CBLAS ones (ILP64), whose addresses the Python
 * side finds with ctypes and hands over once with `init`; this file links against nothing.
 */
#include "common.h"
#include <stdlib.h>

typedef int64_t blas_int;

enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 };

typedef void (*sgemm_fn)(int order, int trans_a, int trans_b, blas_int m, blas_int n,
                         blas_int k, float alpha, const float *a, blas_int lda, const float *b,
                         blas_int ldb, float beta, float *c, blas_int ldc);
typedef void (*dgemm_fn)(int order, int trans_a, int trans_b, blas_int m, blas_int n,
                         blas_int k, double alpha, const double *a, blas_int lda,
                         const double *b, blas_int ldb, double beta, double *c, blas_int ldc);

static sgemm_fn sgemm;
static dgemm_fn dgemm;

/* Multiply-adds one thread's share must hold to pay for waking a thread (a few microseconds of
 * OpenMP handoff against roughly 1e4-1e5 multiply-adds per microsecond per core). */
#define SHARE_MIN_MACS ((Py_ssize_t)1 << 17)
/* A K slice costs a buffer of the whole output and an extra pass over it: only for small ones. */
#define K_SPLIT_MAX_OUTPUT ((Py_ssize_t)1 << 12)

typedef struct {
    char kind;
    Py_ssize_t m, n, k;
    int trans_a, trans_b;
    const char *a, *b;
    char *c;
    double alpha, beta;
} product;

/* out[rows r0..r1, cols c0..c1) = alpha op(a) op(b) + beta out over K range [k0, k1), into `c`
 * with leading dimension ldc (the output itself, or a partial buffer). */
static void block(const product *p, Py_ssize_t r0, Py_ssize_t r1, Py_ssize_t c0, Py_ssize_t c1,
                  Py_ssize_t k0, Py_ssize_t k1, char *c, Py_ssize_t ldc, double beta) {
    Py_ssize_t size = p->kind == 'f' ? 4 : 8;
    Py_ssize_t lda = p->trans_a ? p->m : p->k, ldb = p->trans_b ? p->k : p->n;
    /* element offsets of op(a)[r0, k0] and op(b)[k0, c0] in the stored arrays */
    Py_ssize_t a_off = p->trans_a ? k0 * lda + r0 : r0 * lda + k0;
    Py_ssize_t b_off = p->trans_b ? c0 * ldb + k0 : k0 * ldb + c0;
    const char *a = p->a + a_off * size, *b = p->b + b_off * size;
    char *out = c + (r0 * ldc + c0) * size;
    int ta = p->trans_a ? TRANS : NO_TRANS, tb = p->trans_b ? TRANS : NO_TRANS;
    if (p->kind == 'f')
        sgemm(ROW_MAJOR, ta, tb, r1 - r0, c1 - c0, k1 - k0, (float)p->alpha, (const float *)a,
              lda, (const float *)b, ldb, (float)beta, (float *)out, ldc);
    else
        dgemm(ROW_MAJOR, ta, tb, r1 - r0, c1 - c0, k1 - k0, p->alpha, (const double *)a, lda,
              (const double *)b, ldb, beta, (double *)out, ldc);
}

/* The K-sliced product: slice 0 goes into the output (with beta), the others into buffers of
 * the output's size, added into it afterwards in order. */
static int sliced_over_k(const product *p, int parts) {
    Py_ssize_t size = p->kind == 'f' ? 4 : 8, cells = p->m * p->n;
    char *partials = malloc((size_t)(cells * size * (parts - 1)));
    if (!partials) return -1;
#ifdef _OPENMP
#pragma omp parallel num_threads(parts)
#endif
    {
        Py_ssize_t i = volta_thread_num(), count = volta_num_threads();
        for (Py_ssize_t s = i; s < parts; s += count) {
            Py_ssize_t k0 = p->k * s / parts, k1 = p->k * (s + 1) / parts;
            if (s == 0)
                block(p, 0, p->m, 0, p->n, k0, k1, p->c, p->n, p->beta);
            else
                block(p, 0, p->m, 0, p->n, k0, k1, partials + (s - 1) * cells * size, p->n, 0.0);
        }
    }
    for (int s = 1; s < parts; s++) {
        if (p->kind == 'f') {
            float *c = (float *)p->c;
            const float *part = (const float *)partials + (s - 1) * cells;
            for (Py_ssize_t j = 0; j < cells; j++) c[j] += part[j];
        } else {
            double *c = (double *)p->c;
            const double *part = (const double *)partials + (s - 1) * cells;
            for (Py_ssize_t j = 0; j < cells; j++) c[j] += part[j];
        }
    }
    free(partials);
    return 0;
}

static int run_product(const product *p, int threads) {
    Py_ssize_t macs = p->m * p->n * p->k;
    Py_ssize_t parts = macs / SHARE_MIN_MACS;
    if (parts > threads) parts = threads;
    if (p->m == 0 || p->n == 0) return 0;
    if (p->k == 0) { /* no products: out = beta out */
        Py_ssize_t cells = p->m * p->n;
        if (p->kind == 'f') {
            float *c = (float *)p->c, beta = (float)p->beta;
            for (Py_ssize_t j = 0; j < cells; j++) c[j] = beta == 0.0f ? 0.0f : beta * c[j];
        } else {
            double *c = (double *)p->c;
            for (Py_ssize_t j = 0; j < cells; j++) c[j] = p->beta == 0.0 ? 0.0 : p->beta * c[j];
        }
        return 0;
    }
    Py_ssize_t wide = p->m > p->n ? p->m : p->n;
    if (parts > 1 && p->m * p->n <= K_SPLIT_MAX_OUTPUT && p->k >= 8 * wide) {
        if (parts > p->k) parts = p->k;
        return sliced_over_k(p, (int)parts);
    }
    /* at least 8 rows/columns a share, so each BLAS call still gets whole micro-kernel tiles */
    if (parts > wide / 8) parts = wide / 8;
    if (parts <= 1) {
        block(p, 0, p->m, 0, p->n, 0, p->k, p->c, p->n, p->beta);
        return 0;
    }
    int by_rows = p->m >= p->n;
#ifdef _OPENMP
#pragma omp parallel num_threads((int)parts)
#endif
    {
        Py_ssize_t i = volta_thread_num(), count = volta_num_threads();
        Py_ssize_t lo = wide * i / count, hi = wide * (i + 1) / count;
        if (hi > lo) {
            if (by_rows)
                block(p, lo, hi, 0, p->n, 0, p->k, p->c, p->n, p->beta);
            else
                block(p, 0, p->m, lo, hi, 0, p->k, p->c, p->n, p->beta);
        }
    }
    return 0;
}

/* A batch of products whose items each hold too little to split: items over the threads, each
 * on one. */
static void items_over_threads(const product *items, Py_ssize_t batch, int threads) {
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(threads)
#endif
    for (Py_ssize_t i = 0; i < batch; i++)
        block(&items[i], 0, items[i].m, 0, items[i].n, 0, items[i].k, items[i].c, items[i].n,
              items[i].beta);
}

static int run_batch(const product *first, Py_ssize_t batch, int threads) {
    Py_ssize_t size = first->kind == 'f' ? 4 : 8;
    Py_ssize_t macs = first->m * first->n * first->k;
    if (batch == 1 || first->m == 0 || first->n == 0 || first->k == 0 ||
        macs >= SHARE_MIN_MACS * threads) {
        for (Py_ssize_t i = 0; i < batch; i++) {
            product item = *first;
            item.a += i * first->m * first->k * size;
            item.b += i * first->k * first->n * size;
            item.c += i * first->m * first->n * size;
            if (run_product(&item, threads) < 0) return -1;
        }
        return 0;
    }
    Py_ssize_t parts = batch * macs / SHARE_MIN_MACS;
    if (parts > threads) parts = threads;
    if (parts > batch) parts = batch;
    product *items = malloc((size_t)batch * sizeof(product));
    if (!items) return -1;
    for (Py_ssize_t i = 0; i < batch; i++) {
        items[i] = *first;
        items[i].a += i * first->m * first->k * size;
        items[i].b += i * first->k * first->n * size;
        items[i].c += i * first->m * first->n * size;
    }
    items_over_threads(items, batch, parts < 1 ? 1 : (int)parts);
    free(items);
    return 0;
}

/* gemm(a, b, out, batch, m, n, k, trans_a, trans_b, alpha, beta, threads):
 * out[i] (m x n) = alpha op(a[i]) op(b[i]) + beta out[i] for each of `batch` items stored one
 * after the other, op(a[i]) m x k, op(b[i]) k x n; a[i] is stored k x m when trans_a (the
 * C-contiguous array whose transpose is the operand), likewise b. */
static PyObject *py_gemm(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("gemm", nargs, 12);
    Py_ssize_t batch = PyLong_AsSsize_t(args[3]), m = PyLong_AsSsize_t(args[4]),
               n = PyLong_AsSsize_t(args[5]), k = PyLong_AsSsize_t(args[6]);
    int trans_a = PyObject_IsTrue(args[7]), trans_b = PyObject_IsTrue(args[8]);
    double alpha = volta_arg_double(args[9]), beta = volta_arg_double(args[10]);
    long threads = volta_arg_long(args[11]);
    if (PyErr_Occurred()) return NULL;
    if (batch < 0 || m < 0 || n < 0 || k < 0) {
        PyErr_SetString(PyExc_ValueError, "gemm: negative size");
        return NULL;
    }
    volta_array arrays[3];
    char kind;
    if (volta_get_arrays(args, 3, 2, arrays, &kind) < 0) return NULL;
    if (arrays[0].size != batch * m * k || arrays[1].size != batch * k * n ||
        arrays[2].size != batch * m * n) {
        volta_release_arrays(arrays, 3);
        PyErr_SetString(PyExc_ValueError, "gemm: array sizes do not match batch, m, n, k");
        return NULL;
    }
    if ((kind == 'f' && !sgemm) || (kind == 'd' && !dgemm)) {
        volta_release_arrays(arrays, 3);
        PyErr_SetString(PyExc_RuntimeError, "gemm: init() was not called");
        return NULL;
    }
    product p = {kind, m, n, k, trans_a, trans_b, arrays[0].data, arrays[1].data,
                 arrays[2].data, alpha, beta};
    int status = 0;
    Py_BEGIN_ALLOW_THREADS
    if (batch > 0) status = run_batch(&p, batch, threads < 1 ? 1 : (int)threads);
    Py_END_ALLOW_THREADS
    volta_release_arrays(arrays, 3);
    if (status < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* init(sgemm_address, dgemm_address): the CBLAS functions (ILP64) gemm calls. */
static PyObject *py_init(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("init", nargs, 2);
    void *s = PyLong_AsVoidPtr(args[0]), *d = PyLong_AsVoidPtr(args[1]);
    if (PyErr_Occurred()) return NULL;
    if (!s || !d) {
        PyErr_SetString(PyExc_ValueError, "init: null function address");
        return NULL;
    }
    sgemm = (sgemm_fn)s;
    dgemm = (dgemm_fn)d;
    Py_RETURN_NONE;
}

#define BLAS_METHOD(name, doc) VOLTA_METHOD_OF(#name, py_##name, doc)

static PyMethodDef methods[] = {
    BLAS_METHOD(init, "init(sgemm_address, dgemm_address): the CBLAS (ILP64) functions to call"),
    BLAS_METHOD(gemm, "gemm(a, b, out, batch, m, n, k, trans_a, trans_b, alpha, beta, threads): "
                      "out[i] = alpha op(a[i]) op(b[i]) + beta out[i]"),
    {NULL, NULL, 0, NULL},
};

VOLTA_MODULE(blas)
