/* Row-wise kernels of float32 (rows, width) arrays, C-contiguous: softmax and log_softmax and
 * their backwards, logsumexp, layer norm and its backward, sums, means and extrema of each row,
 * the total of an array, and the NLL loss of class indices (Note [native kernel contract]).
 *
 * Rows are split over threads; within a row the loops run in vector lanes.
 *
 * Sums are taken as Note [sums in blocks] (common.h) says. The sums of a softmax are of positive
 * terms and stay in float, as PyTorch's.
 *
 * Results do not depend on the thread count: every row, column and block is summed by one
 * thread in one order.
 */
#include "common.h"

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

/* ---- row helpers (inlined into each vector clone) ------------------------------------------- */

/* The largest entry of a row, skipping NaN; -inf for an empty row or one of NaN only. */
static inline float row_max(const float *x, Py_ssize_t n) {
    float m = -INFINITY;
#pragma omp simd reduction(max : m)
    for (Py_ssize_t j = 0; j < n; j++) m = x[j] > m ? x[j] : m;
    return m;
}

/* sum((x - centre)^2), Note [sums in blocks] */
static inline double block_squares(const float *x, float centre, Py_ssize_t n) {
    double total = 0.0;
    for (Py_ssize_t b = 0; b < n; b += VOLTA_SUM_BLOCK) {
        Py_ssize_t e = b + VOLTA_SUM_BLOCK < n ? b + VOLTA_SUM_BLOCK : n;
        float s = 0.0f;
#pragma omp simd reduction(+ : s)
        for (Py_ssize_t j = b; j < e; j++) {
            float d = x[j] - centre;
            s += d * d;
        }
        total += s;
    }
    return total;
}

/* sum(a * b), Note [sums in blocks] */
static inline double block_dot(const float *a, const float *b, Py_ssize_t n) {
    double total = 0.0;
    for (Py_ssize_t k = 0; k < n; k += VOLTA_SUM_BLOCK) {
        Py_ssize_t e = k + VOLTA_SUM_BLOCK < n ? k + VOLTA_SUM_BLOCK : n;
        float s = 0.0f;
#pragma omp simd reduction(+ : s)
        for (Py_ssize_t j = k; j < e; j++) s += a[j] * b[j];
        total += s;
    }
    return total;
}

/* ---- softmax, log_softmax, logsumexp -------------------------------------------------------- */

typedef struct {
    const float *x, *y;
    float *out;
    Py_ssize_t width;
    int flag;
} rows_ctx;

/* A row whose max is NaN-free but holds NaN gives NaN everywhere (exp(NaN) enters the sum); a
 * row of -inf, or one with +inf, gives NaN as PyTorch's (inf - inf). */
VOLTA_VECTOR static void softmax_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const rows_ctx *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        const float *x = c->x + i * w;
        float *o = c->out + i * w;
        float m = row_max(x, w);
        float s = 0.0f;
        if (c->flag) { /* log_softmax: x - max - log(sum(exp(x - max))) */
#pragma omp simd reduction(+ : s)
            for (Py_ssize_t j = 0; j < w; j++) s += volta_expf(x[j] - m);
            float lg = volta_logf(s); /* (x - max) - lg: max + lg would round at large max */
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] = (x[j] - m) - lg;
        } else {
#pragma omp simd reduction(+ : s)
            for (Py_ssize_t j = 0; j < w; j++) {
                float e = volta_expf(x[j] - m);
                o[j] = e;
                s += e;
            }
            float r = 1.0f / s;
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] *= r;
        }
    }
}

/* (x: output of softmax / log_softmax, y: its gradient) -> the input's gradient */
VOLTA_VECTOR static void softmax_backward_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const rows_ctx *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        const float *out = c->x + i * w, *g = c->y + i * w;
        float *r = c->out + i * w;
        if (c->flag) { /* grad - exp(output) * sum(grad) */
            float s = (float)volta_block_sum(g, w);
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) r[j] = g[j] - volta_expf(out[j]) * s;
        } else { /* output * (grad - sum(grad * output)) */
            float s = (float)block_dot(g, out, w);
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) r[j] = out[j] * (g[j] - s);
        }
    }
}

/* log(sum(exp(x))) of each row, shifted by the row's max where it is finite: a row of -inf
 * gives -inf, one with +inf gives +inf, one with NaN gives NaN. */
VOLTA_VECTOR static void logsumexp_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const rows_ctx *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        const float *x = c->x + i * w;
        float m = row_max(x, w);
        float shift = (m == INFINITY || m == -INFINITY) ? 0.0f : m;
        float s = 0.0f;
#pragma omp simd reduction(+ : s)
        for (Py_ssize_t j = 0; j < w; j++) s += volta_expf(x[j] - shift);
        c->out[i] = volta_logf(s) + shift;
    }
}

/* ---- sums and extrema of rows, totals ------------------------------------------------------- */

VOLTA_VECTOR static void row_sums_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const rows_ctx *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        double s = volta_block_sum(c->x + i * w, w);
        c->out[i] = (float)(c->flag ? s / (double)w : s);
    }
}

/* The max (flag 1) or min (flag 0) of each row; NaN where the row holds NaN, as PyTorch's. */
VOLTA_VECTOR static void row_extrema_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const rows_ctx *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        const float *x = c->x + i * w;
        int nan = 0;
        float m;
        if (c->flag) {
            m = -INFINITY;
#pragma omp simd reduction(max : m) reduction(| : nan)
            for (Py_ssize_t j = 0; j < w; j++) {
                m = x[j] > m ? x[j] : m;
                nan |= x[j] != x[j];
            }
        } else {
            m = INFINITY;
#pragma omp simd reduction(min : m) reduction(| : nan)
            for (Py_ssize_t j = 0; j < w; j++) {
                m = x[j] < m ? x[j] : m;
                nan |= x[j] != x[j];
            }
        }
        c->out[i] = nan ? NAN : m;
    }
}

typedef struct {
    const float *x, *y; /* y: NULL for a plain total, else the second operand of (x - y)^2 */
    Py_ssize_t size;
    double *partials; /* one per chunk of TOTAL_CHUNK elements */
} total_ctx;

VOLTA_VECTOR static void total_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const total_ctx *c = p;
    for (Py_ssize_t k = begin; k < end; k++) {
        Py_ssize_t first = k * TOTAL_CHUNK;
        Py_ssize_t n = c->size - first < TOTAL_CHUNK ? c->size - first : TOTAL_CHUNK;
        if (!c->y) {
            c->partials[k] = volta_block_sum(c->x + first, n);
            continue;
        }
        const float *a = c->x + first, *b = c->y + first;
        double squares = 0.0;
        for (Py_ssize_t s = 0; s < n; s += VOLTA_SUM_BLOCK) {
            Py_ssize_t e = s + VOLTA_SUM_BLOCK < n ? s + VOLTA_SUM_BLOCK : n;
            float acc = 0.0f;
#pragma omp simd reduction(+ : acc)
            for (Py_ssize_t j = s; j < e; j++) {
                float d = a[j] - b[j];
                acc += d * d;
            }
            squares += acc;
        }
        c->partials[k] = squares;
    }
}

/* The sum of x (or of (x - y)^2): chunks summed on the threads, the chunks' sums in order. */
static PyObject *chunked_total(const float *x, const float *y, Py_ssize_t size, int threads) {
    Py_ssize_t chunks = (size + TOTAL_CHUNK - 1) / TOTAL_CHUNK;
    double stack[64], *partials = chunks <= 64 ? stack : PyMem_RawMalloc(sizeof(double) * chunks);
    if (!partials) return PyErr_NoMemory();
    total_ctx ctx = {x, y, size, partials};
    double sum = 0.0;
    Py_BEGIN_ALLOW_THREADS
    volta_parallel(chunks, REDUCE_GRAIN_ELEMENTS / TOTAL_CHUNK, threads, total_range, &ctx);
    for (Py_ssize_t k = 0; k < chunks; k++) sum += partials[k];
    Py_END_ALLOW_THREADS
    if (partials != stack) PyMem_RawFree(partials);
    return PyFloat_FromDouble(sum);
}

/* ---- layer norm ----------------------------------------------------------------------------- */

typedef struct {
    const float *x, *grad, *weight, *bias;
    float *out, *mean, *rstd;
    float *grad_weight, *grad_bias;
    float *slab_weight, *slab_bias; /* Note [layer norm parameter gradients in slabs] */
    Py_ssize_t rows, width, slabs;
    double eps;
} norm_ctx;

VOLTA_VECTOR static void layer_norm_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const norm_ctx *c = p;
    Py_ssize_t w = c->width;
    const float *weight = c->weight, *bias = c->bias;
    for (Py_ssize_t i = begin; i < end; i++) {
        const float *x = c->x + i * w;
        float *o = c->out + i * w;
        float mean = (float)(volta_block_sum(x, w) / (double)w);
        double var = block_squares(x, mean, w) / (double)w;
        float rstd = (float)(1.0 / sqrt(var + c->eps));
        c->mean[i] = mean;
        c->rstd[i] = rstd;
        if (weight && bias) {
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] = (x[j] - mean) * rstd * weight[j] + bias[j];
        } else if (weight) {
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] = (x[j] - mean) * rstd * weight[j];
        } else if (bias) {
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] = (x[j] - mean) * rstd + bias[j];
        } else {
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] = (x[j] - mean) * rstd;
        }
    }
}

/* Note [layer norm parameter gradients in slabs]: the weight's gradient is the column sums of
 * grad * (x - mean) * rstd and the bias's those of grad. They are added up while the rows are
 * read for the input's gradient: each slab of SLAB rows sums into a row of partial sums (float,
 * 16 terms), and the slabs' partial sums are added in order, in double, at the end. A slab
 * belongs to one thread since volta_parallel starts every range at a multiple of 16 rows
 * (common.h), and the result does not depend on the thread count. */
#define SLAB 16

/* The input's gradient, row by row: with g = grad * weight and c = x - mean,
 * rstd * (g - mean(g)) - c * rstd^3 * mean(g * c); and the slabs' partial sums. */
VOLTA_VECTOR static void layer_norm_backward_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const norm_ctx *c = p;
    Py_ssize_t w = c->width;
    const float *weight = c->weight;
    for (Py_ssize_t i = begin; i < end; i++) {
        const float *x = c->x + i * w, *g = c->grad + i * w;
        float mean = c->mean[i], rstd = c->rstd[i];
        int first = i % SLAB == 0; /* the slab's first row starts its partial sums */
        float *pw = c->slab_weight ? c->slab_weight + (i / SLAB) * w : NULL;
        float *pb = c->slab_bias ? c->slab_bias + (i / SLAB) * w : NULL;
        if (c->out) {
            float *o = c->out + i * w;
            double sum_g, sum_gc;
            volta_block_grad_sums(g, weight, x, mean, w, &sum_g, &sum_gc);
            /* rstd * (g - mean(g) - c * rstd^2 * mean(g * c)); one element per row is exactly 0 */
            float mean_g = (float)(sum_g / (double)w);
            float slope = rstd * rstd * (float)(sum_gc / (double)w);
            if (weight && pw && pb && !first) { /* the usual case in one pass */
#pragma omp simd
                for (Py_ssize_t j = 0; j < w; j++) {
                    float xc = x[j] - mean;
                    o[j] = rstd * (g[j] * weight[j] - mean_g - xc * slope);
                    pw[j] += g[j] * (xc * rstd);
                    pb[j] += g[j];
                }
                continue;
            }
            if (weight) {
#pragma omp simd
                for (Py_ssize_t j = 0; j < w; j++)
                    o[j] = rstd * (g[j] * weight[j] - mean_g - (x[j] - mean) * slope);
            } else {
#pragma omp simd
                for (Py_ssize_t j = 0; j < w; j++)
                    o[j] = rstd * (g[j] - mean_g - (x[j] - mean) * slope);
            }
        }
        if (pw && first) {
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) pw[j] = g[j] * ((x[j] - mean) * rstd);
        } else if (pw) {
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) pw[j] += g[j] * ((x[j] - mean) * rstd);
        }
        if (pb && first) {
            memcpy(pb, g, sizeof(float) * w);
        } else if (pb) {
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) pb[j] += g[j];
        }
    }
}

/* The slabs' partial sums added in order, in double, for a range of columns. */
VOLTA_VECTOR static void slab_sums_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const norm_ctx *c = p;
    Py_ssize_t w = c->width;
    const float *partials[2] = {c->slab_weight, c->slab_bias};
    float *sums[2] = {c->grad_weight, c->grad_bias};
    double acc[128];
    for (int k = 0; k < 2; k++) {
        if (!sums[k]) continue;
        for (Py_ssize_t b = begin; b < end; b += 128) {
            Py_ssize_t n = end - b < 128 ? end - b : 128;
            for (Py_ssize_t j = 0; j < n; j++) acc[j] = 0.0;
            for (Py_ssize_t s = 0; s < c->slabs; s++) {
                const float *row = partials[k] + s * w + b;
#pragma omp simd
                for (Py_ssize_t j = 0; j < n; j++) acc[j] += (double)row[j];
            }
            for (Py_ssize_t j = 0; j < n; j++) sums[k][b + j] = (float)acc[j];
        }
    }
}

/* ---- module functions ----------------------------------------------------------------------- */

/* rows of `width` split over threads for a grain of `elements` (volta_run_held) */
static PyObject *run_rows(volta_held *held, Py_ssize_t rows, Py_ssize_t width, Py_ssize_t elements,
                          int threads, volta_range_fn fn, void *ctx) {
    return volta_run_held(held, rows, row_grain(width, elements), threads, fn, ctx);
}

/* softmax(x, out, rows, width, log, threads) */
static PyObject *softmax(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("softmax", nargs, 6);
    Py_ssize_t rows, width;
    int threads, log = PyObject_IsTrue(args[4]);
    if (log < 0 || shape_args(args, nargs, 2, &rows, &width, &threads) < 0) return NULL;
    volta_held held = {.count = 0};
    rows_ctx ctx = {.width = width, .flag = log};
    if (volta_hold_f32(&held, args[0], 0, rows * width, 0, "x", (float **)&ctx.x) < 0 ||
        volta_hold_f32(&held, args[1], 1, rows * width, 0, "out", &ctx.out) < 0)
        return NULL;
    return run_rows(&held, rows, width, GRAIN_ELEMENTS, threads, softmax_range, &ctx);
}

/* softmax_backward(output, grad, result, rows, width, log, threads) */
static PyObject *softmax_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("softmax_backward", nargs, 7);
    Py_ssize_t rows, width;
    int threads, log = PyObject_IsTrue(args[5]);
    if (log < 0 || shape_args(args, nargs, 3, &rows, &width, &threads) < 0) return NULL;
    volta_held held = {.count = 0};
    rows_ctx ctx = {.width = width, .flag = log};
    if (volta_hold_f32(&held, args[0], 0, rows * width, 0, "output", (float **)&ctx.x) < 0 ||
        volta_hold_f32(&held, args[1], 0, rows * width, 0, "grad", (float **)&ctx.y) < 0 ||
        volta_hold_f32(&held, args[2], 1, rows * width, 0, "result", &ctx.out) < 0)
        return NULL;
    return run_rows(&held, rows, width, GRAIN_ELEMENTS, threads, softmax_backward_range, &ctx);
}

/* One value per row: reducer(x, out, rows, width, [flag,] threads) */
static PyObject *per_row(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t expected,
                         const char *name, volta_range_fn fn, Py_ssize_t grain) {
    VOLTA_CHECK_NARGS(name, nargs, expected);
    Py_ssize_t rows, width;
    int threads, flag = 0;
    if (shape_args(args, nargs, 2, &rows, &width, &threads) < 0) return NULL;
    if (expected == 6 && (flag = PyObject_IsTrue(args[4])) < 0) return NULL;
    volta_held held = {.count = 0};
    rows_ctx ctx = {.width = width, .flag = flag};
    if (volta_hold_f32(&held, args[0], 0, rows * width, 0, "x", (float **)&ctx.x) < 0 ||
        volta_hold_f32(&held, args[1], 1, rows, 0, "out", &ctx.out) < 0)
        return NULL;
    return run_rows(&held, rows, width, grain, threads, fn, &ctx);
}

/* logsumexp(x, out, rows, width, threads) */
static PyObject *logsumexp(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return per_row(args, nargs, 5, "logsumexp", logsumexp_range, GRAIN_ELEMENTS);
}

/* row_sums(x, out, rows, width, mean, threads): the sum (mean) of each row */
static PyObject *row_sums(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return per_row(args, nargs, 6, "row_sums", row_sums_range, REDUCE_GRAIN_ELEMENTS);
}

/* row_extrema(x, out, rows, width, largest, threads): the max (min) of each non-empty row */
static PyObject *row_extrema(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return per_row(args, nargs, 6, "row_extrema", row_extrema_range, REDUCE_GRAIN_ELEMENTS);
}

/* total(x, threads) -> float: the sum of every element */
static PyObject *total(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("total", nargs, 2);
    int threads = (int)PyLong_AsLong(args[1]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    volta_array a;
    if (volta_get_array(args[0], &a, 0) < 0) return NULL;
    if (volta_float_kind(&a) != 'f') {
        volta_release(&a);
        PyErr_SetString(PyExc_ValueError, "total: a float32 array");
        return NULL;
    }
    PyObject *result = chunked_total(a.data, NULL, a.size, threads);
    volta_release(&a);
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
    if (kind != 'f' || a[0].size != a[1].size) {
        volta_release_arrays(a, 2);
        PyErr_SetString(PyExc_ValueError, "squared_error_total: two float32 arrays of one size");
        return NULL;
    }
    PyObject *result = chunked_total(a[0].data, a[1].data, a[0].size, threads);
    volta_release_arrays(a, 2);
    return result;
}

/* layer_norm(x, weight|None, bias|None, out, mean, rstd, rows, width, eps, threads) */
static PyObject *layer_norm(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("layer_norm", nargs, 10);
    Py_ssize_t rows, width;
    int threads;
    if (shape_args(args, nargs, 6, &rows, &width, &threads) < 0) return NULL;
    double eps = PyFloat_AsDouble(args[8]);
    if (eps == -1.0 && PyErr_Occurred()) return NULL;
    volta_held held = {.count = 0};
    norm_ctx ctx = {.rows = rows, .width = width, .eps = eps};
    if (volta_hold_f32(&held, args[0], 0, rows * width, 0, "x", (float **)&ctx.x) < 0 ||
        volta_hold_f32(&held, args[1], 0, width, 1, "weight", (float **)&ctx.weight) < 0 ||
        volta_hold_f32(&held, args[2], 0, width, 1, "bias", (float **)&ctx.bias) < 0 ||
        volta_hold_f32(&held, args[3], 1, rows * width, 0, "out", &ctx.out) < 0 ||
        volta_hold_f32(&held, args[4], 1, rows, 0, "mean", &ctx.mean) < 0 ||
        volta_hold_f32(&held, args[5], 1, rows, 0, "rstd", &ctx.rstd) < 0)
        return NULL;
    return run_rows(&held, rows, width, GRAIN_ELEMENTS, threads, layer_norm_range, &ctx);
}

/* layer_norm_backward(grad, x, mean, rstd, weight|None, grad_input|None, grad_weight|None,
 *                     grad_bias|None, rows, width, threads) */
static PyObject *layer_norm_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("layer_norm_backward", nargs, 11);
    Py_ssize_t rows, width;
    int threads;
    if (shape_args(args, nargs, 8, &rows, &width, &threads) < 0) return NULL;
    volta_held held = {.count = 0};
    norm_ctx ctx = {.rows = rows, .width = width};
    if (volta_hold_f32(&held, args[0], 0, rows * width, 0, "grad", (float **)&ctx.grad) < 0 ||
        volta_hold_f32(&held, args[1], 0, rows * width, 0, "x", (float **)&ctx.x) < 0 ||
        volta_hold_f32(&held, args[2], 0, rows, 0, "mean", &ctx.mean) < 0 ||
        volta_hold_f32(&held, args[3], 0, rows, 0, "rstd", &ctx.rstd) < 0 ||
        volta_hold_f32(&held, args[4], 0, width, 1, "weight", (float **)&ctx.weight) < 0 ||
        volta_hold_f32(&held, args[5], 1, rows * width, 1, "grad_input", &ctx.out) < 0 ||
        volta_hold_f32(&held, args[6], 1, width, 1, "grad_weight", &ctx.grad_weight) < 0 ||
        volta_hold_f32(&held, args[7], 1, width, 1, "grad_bias", &ctx.grad_bias) < 0)
        return NULL;
    ctx.slabs = (rows + SLAB - 1) / SLAB;
    int params = (ctx.grad_weight != NULL) + (ctx.grad_bias != NULL);
    float *partials = NULL;
    if (params && rows && width) {
        if ((size_t)ctx.slabs > PY_SSIZE_T_MAX / sizeof(float) / 2 / (size_t)width ||
            !(partials = PyMem_RawMalloc(sizeof(float) * params * ctx.slabs * width))) {
            volta_release_held(&held);
            return PyErr_NoMemory();
        }
        ctx.slab_weight = ctx.grad_weight ? partials : NULL;
        ctx.slab_bias = ctx.grad_bias ? partials + (params - 1) * ctx.slabs * width : NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    volta_parallel(rows, row_grain(width, GRAIN_ELEMENTS), threads, layer_norm_backward_range,
                   &ctx);
    if (params) {
        if (!rows) { /* no rows: zero gradients */
            if (ctx.grad_weight) memset(ctx.grad_weight, 0, sizeof(float) * width);
            if (ctx.grad_bias) memset(ctx.grad_bias, 0, sizeof(float) * width);
        } else {
            volta_parallel(width, row_grain(ctx.slabs, REDUCE_GRAIN_ELEMENTS), threads,
                           slab_sums_range, &ctx);
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(partials);
    volta_release_held(&held);
    Py_RETURN_NONE;
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
