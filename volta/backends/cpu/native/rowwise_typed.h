/* The row kernels of rowwise.c for one element type, stamped once per type by rowwise.c, which
 * defines before each inclusion:
 *   T             the element type (float or double)
 *   NAME(name)    name with the type's suffix (name_f32, name_f64)
 *   EXP(x), LOG(x) the type's exp and log: the vectorising float32 polynomials of common.h for
 *                 float, C99 libm's exp and log for double (float64 accuracy)
 *   HOLD          volta_hold_f32 or volta_hold_f64
 * Sums of rows add blocks of VOLTA_SUM_BLOCK terms in T and the blocks' sums in double: for
 * float32 this is Note [sums in blocks] (common.h); for float64 every addition is in double, the
 * blocks only bound how many terms one lane chain adds. Everything here is the same code for both
 * types; what differs (the math functions) comes in through the macros above. */

/* ---- sums (inlined into each vector clone) -------------------------------------------------- */

/* sum(x) in blocks */
VOLTA_HOT_INLINE double NAME(block_sum)(const T *x, Py_ssize_t n) {
    double total = 0.0;
    for (Py_ssize_t b = 0; b < n; b += VOLTA_SUM_BLOCK) {
        Py_ssize_t e = b + VOLTA_SUM_BLOCK < n ? b + VOLTA_SUM_BLOCK : n;
        T s = (T)0;
#pragma omp simd reduction(+ : s)
        for (Py_ssize_t j = b; j < e; j++) s += x[j];
        total += s;
    }
    return total;
}

/* the two sums layer norm's backward takes of a row (common.h) */
VOLTA_BLOCK_GRAD_SUMS(NAME(grad_sums), T)

/* The largest entry of a row, skipping NaN; -inf for an empty row or one of NaN only. */
static inline T NAME(row_max)(const T *x, Py_ssize_t n) {
    T m = -INFINITY;
#pragma omp simd reduction(max : m)
    for (Py_ssize_t j = 0; j < n; j++) m = x[j] > m ? x[j] : m;
    return m;
}

/* sum((x - centre)^2) in blocks */
static inline double NAME(block_squares)(const T *x, T centre, Py_ssize_t n) {
    double total = 0.0;
    for (Py_ssize_t b = 0; b < n; b += VOLTA_SUM_BLOCK) {
        Py_ssize_t e = b + VOLTA_SUM_BLOCK < n ? b + VOLTA_SUM_BLOCK : n;
        T s = (T)0;
#pragma omp simd reduction(+ : s)
        for (Py_ssize_t j = b; j < e; j++) {
            T d = x[j] - centre;
            s += d * d;
        }
        total += s;
    }
    return total;
}

/* sum(a * b) in blocks */
static inline double NAME(block_dot)(const T *a, const T *b, Py_ssize_t n) {
    double total = 0.0;
    for (Py_ssize_t k = 0; k < n; k += VOLTA_SUM_BLOCK) {
        Py_ssize_t e = k + VOLTA_SUM_BLOCK < n ? k + VOLTA_SUM_BLOCK : n;
        T s = (T)0;
#pragma omp simd reduction(+ : s)
        for (Py_ssize_t j = k; j < e; j++) s += a[j] * b[j];
        total += s;
    }
    return total;
}

/* ---- softmax, log_softmax, logsumexp -------------------------------------------------------- */

typedef struct {
    const T *x, *y;
    T *out;
    Py_ssize_t width;
    int flag;
} NAME(rows_ctx);

/* A row whose max is NaN-free but holds NaN gives NaN everywhere (exp(NaN) enters the sum); a
 * row of -inf, or one with +inf, gives NaN as PyTorch's (inf - inf). */
VOLTA_VECTOR static void NAME(softmax_range)(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const NAME(rows_ctx) *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        const T *x = c->x + i * w;
        T *o = c->out + i * w;
        T m = NAME(row_max)(x, w);
        T s = (T)0;
        if (c->flag) { /* log_softmax: x - max - log(sum(exp(x - max))) */
#pragma omp simd reduction(+ : s)
            for (Py_ssize_t j = 0; j < w; j++) s += EXP(x[j] - m);
            T lg = LOG(s); /* (x - max) - lg: max + lg would round at large max */
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] = (x[j] - m) - lg;
        } else {
#pragma omp simd reduction(+ : s)
            for (Py_ssize_t j = 0; j < w; j++) {
                T e = EXP(x[j] - m);
                o[j] = e;
                s += e;
            }
            T r = (T)1 / s;
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] *= r;
        }
    }
}

/* (x: output of softmax / log_softmax, y: its gradient) -> the input's gradient */
VOLTA_VECTOR static void NAME(softmax_backward_range)(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const NAME(rows_ctx) *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        const T *out = c->x + i * w, *g = c->y + i * w;
        T *r = c->out + i * w;
        if (c->flag) { /* grad - exp(output) * sum(grad) */
            T s = (T)NAME(block_sum)(g, w);
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) r[j] = g[j] - EXP(out[j]) * s;
        } else { /* output * (grad - sum(grad * output)) */
            T s = (T)NAME(block_dot)(g, out, w);
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) r[j] = out[j] * (g[j] - s);
        }
    }
}

/* log(sum(exp(x))) of each row, shifted by the row's max where it is finite: a row of -inf
 * gives -inf, one with +inf gives +inf, one with NaN gives NaN. */
VOLTA_VECTOR static void NAME(logsumexp_range)(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const NAME(rows_ctx) *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        const T *x = c->x + i * w;
        T m = NAME(row_max)(x, w);
        T shift = (m == INFINITY || m == -INFINITY) ? (T)0 : m;
        T s = (T)0;
#pragma omp simd reduction(+ : s)
        for (Py_ssize_t j = 0; j < w; j++) s += EXP(x[j] - shift);
        c->out[i] = LOG(s) + shift;
    }
}

/* ---- sums and extrema of rows, totals ------------------------------------------------------- */

VOLTA_VECTOR static void NAME(row_sums_range)(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const NAME(rows_ctx) *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        double s = NAME(block_sum)(c->x + i * w, w);
        c->out[i] = (T)(c->flag ? s / (double)w : s);
    }
}

/* The max (flag 1) or min (flag 0) of each row; NaN where the row holds NaN, as PyTorch's. */
VOLTA_VECTOR static void NAME(row_extrema_range)(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const NAME(rows_ctx) *c = p;
    Py_ssize_t w = c->width;
    for (Py_ssize_t i = begin; i < end; i++) {
        const T *x = c->x + i * w;
        int nan = 0;
        T m;
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
    const T *x, *y; /* y: NULL for a plain total, else the second operand of (x - y)^2 */
    Py_ssize_t size;
    double *partials; /* one per chunk of TOTAL_CHUNK elements */
} NAME(total_ctx);

VOLTA_VECTOR static void NAME(total_range)(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const NAME(total_ctx) *c = p;
    for (Py_ssize_t k = begin; k < end; k++) {
        Py_ssize_t first = k * TOTAL_CHUNK;
        Py_ssize_t n = c->size - first < TOTAL_CHUNK ? c->size - first : TOTAL_CHUNK;
        if (!c->y) {
            c->partials[k] = NAME(block_sum)(c->x + first, n);
            continue;
        }
        const T *a = c->x + first, *b = c->y + first;
        double squares = 0.0;
        for (Py_ssize_t s = 0; s < n; s += VOLTA_SUM_BLOCK) {
            Py_ssize_t e = s + VOLTA_SUM_BLOCK < n ? s + VOLTA_SUM_BLOCK : n;
            T acc = (T)0;
#pragma omp simd reduction(+ : acc)
            for (Py_ssize_t j = s; j < e; j++) {
                T d = a[j] - b[j];
                acc += d * d;
            }
            squares += acc;
        }
        c->partials[k] = squares;
    }
}

/* The sum of x (or of (x - y)^2): chunks summed on the threads, the chunks' sums in order. */
static PyObject *NAME(chunked_total)(const T *x, const T *y, Py_ssize_t size, int threads) {
    Py_ssize_t chunks = (size + TOTAL_CHUNK - 1) / TOTAL_CHUNK;
    double stack[64], *partials = chunks <= 64 ? stack : PyMem_RawMalloc(sizeof(double) * chunks);
    if (!partials) return PyErr_NoMemory();
    NAME(total_ctx) ctx = {x, y, size, partials};
    double sum = 0.0;
    Py_BEGIN_ALLOW_THREADS
    volta_parallel(chunks, REDUCE_GRAIN_ELEMENTS / TOTAL_CHUNK, threads, NAME(total_range), &ctx);
    for (Py_ssize_t k = 0; k < chunks; k++) sum += partials[k];
    Py_END_ALLOW_THREADS
    if (partials != stack) PyMem_RawFree(partials);
    return PyFloat_FromDouble(sum);
}

/* ---- layer norm ----------------------------------------------------------------------------- */

typedef struct {
    const T *x, *grad, *weight, *bias;
    T *out, *mean, *rstd;
    T *grad_weight, *grad_bias;
    T *slab_weight, *slab_bias; /* Note [layer norm parameter gradients in slabs] */
    Py_ssize_t rows, width, slabs;
    double eps;
} NAME(norm_ctx);

VOLTA_VECTOR static void NAME(layer_norm_range)(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const NAME(norm_ctx) *c = p;
    Py_ssize_t w = c->width;
    const T *weight = c->weight, *bias = c->bias;
    for (Py_ssize_t i = begin; i < end; i++) {
        const T *x = c->x + i * w;
        T *o = c->out + i * w;
        T mean = (T)(NAME(block_sum)(x, w) / (double)w);
        double var = NAME(block_squares)(x, mean, w) / (double)w;
        T rstd = (T)(1.0 / sqrt(var + c->eps));
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
 * read for the input's gradient: each slab of SLAB rows sums into a row of partial sums (T,
 * 16 terms), and the slabs' partial sums are added in order, in double, at the end. A slab
 * belongs to one thread since volta_parallel starts every range at a multiple of 16 rows
 * (common.h), and the result does not depend on the thread count. SLAB: rowwise.c. */

/* The input's gradient, row by row: with g = grad * weight and c = x - mean,
 * rstd * (g - mean(g)) - c * rstd^3 * mean(g * c); and the slabs' partial sums. */
VOLTA_VECTOR static void NAME(layer_norm_backward_range)(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const NAME(norm_ctx) *c = p;
    Py_ssize_t w = c->width;
    const T *weight = c->weight;
    for (Py_ssize_t i = begin; i < end; i++) {
        const T *x = c->x + i * w, *g = c->grad + i * w;
        T mean = c->mean[i], rstd = c->rstd[i];
        int first = i % SLAB == 0; /* the slab's first row starts its partial sums */
        T *pw = c->slab_weight ? c->slab_weight + (i / SLAB) * w : NULL;
        T *pb = c->slab_bias ? c->slab_bias + (i / SLAB) * w : NULL;
        if (c->out) {
            T *o = c->out + i * w;
            double sum_g, sum_gc;
            NAME(grad_sums)(g, weight, x, mean, w, &sum_g, &sum_gc);
            /* rstd * (g - mean(g) - c * rstd^2 * mean(g * c)); one element per row is exactly 0 */
            T mean_g = (T)(sum_g / (double)w);
            T slope = rstd * rstd * (T)(sum_gc / (double)w);
            if (weight && pw && pb && !first) { /* the usual case in one pass */
#pragma omp simd
                for (Py_ssize_t j = 0; j < w; j++) {
                    T xc = x[j] - mean;
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
            memcpy(pb, g, sizeof(T) * w);
        } else if (pb) {
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) pb[j] += g[j];
        }
    }
}

/* The slabs' partial sums added in order, in double, for a range of columns. */
VOLTA_VECTOR static void NAME(slab_sums_range)(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const NAME(norm_ctx) *c = p;
    Py_ssize_t w = c->width;
    const T *partials[2] = {c->slab_weight, c->slab_bias};
    T *sums[2] = {c->grad_weight, c->grad_bias};
    double acc[128];
    for (int k = 0; k < 2; k++) {
        if (!sums[k]) continue;
        for (Py_ssize_t b = begin; b < end; b += 128) {
            Py_ssize_t n = end - b < 128 ? end - b : 128;
            for (Py_ssize_t j = 0; j < n; j++) acc[j] = 0.0;
            for (Py_ssize_t s = 0; s < c->slabs; s++) {
                const T *row = partials[k] + s * w + b;
#pragma omp simd
                for (Py_ssize_t j = 0; j < n; j++) acc[j] += (double)row[j];
            }
            for (Py_ssize_t j = 0; j < n; j++) sums[k][b + j] = (T)acc[j];
        }
    }
}

/* ---- module functions ----------------------------------------------------------------------- */

/* softmax(x, out, rows, width, log, threads) */
static PyObject *NAME(softmax)(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("softmax", nargs, 6);
    Py_ssize_t rows, width;
    int threads, log = PyObject_IsTrue(args[4]);
    if (log < 0 || shape_args(args, nargs, 2, &rows, &width, &threads) < 0) return NULL;
    volta_held held = {.count = 0};
    NAME(rows_ctx) ctx = {.width = width, .flag = log};
    if (HOLD(&held, args[0], 0, rows * width, 0, "x", (T **)&ctx.x) < 0 ||
        HOLD(&held, args[1], 1, rows * width, 0, "out", &ctx.out) < 0)
        return NULL;
    return run_rows(&held, rows, width, GRAIN_ELEMENTS, threads, NAME(softmax_range), &ctx);
}

/* softmax_backward(output, grad, result, rows, width, log, threads) */
static PyObject *NAME(softmax_backward)(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("softmax_backward", nargs, 7);
    Py_ssize_t rows, width;
    int threads, log = PyObject_IsTrue(args[5]);
    if (log < 0 || shape_args(args, nargs, 3, &rows, &width, &threads) < 0) return NULL;
    volta_held held = {.count = 0};
    NAME(rows_ctx) ctx = {.width = width, .flag = log};
    if (HOLD(&held, args[0], 0, rows * width, 0, "output", (T **)&ctx.x) < 0 ||
        HOLD(&held, args[1], 0, rows * width, 0, "grad", (T **)&ctx.y) < 0 ||
        HOLD(&held, args[2], 1, rows * width, 0, "result", &ctx.out) < 0)
        return NULL;
    return run_rows(&held, rows, width, GRAIN_ELEMENTS, threads, NAME(softmax_backward_range), &ctx);
}

/* One value per row: reducer(x, out, rows, width, [flag,] threads) */
static PyObject *NAME(per_row)(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t expected,
                         const char *name, volta_range_fn fn, Py_ssize_t grain) {
    VOLTA_CHECK_NARGS(name, nargs, expected);
    Py_ssize_t rows, width;
    int threads, flag = 0;
    if (shape_args(args, nargs, 2, &rows, &width, &threads) < 0) return NULL;
    if (expected == 6 && (flag = PyObject_IsTrue(args[4])) < 0) return NULL;
    volta_held held = {.count = 0};
    NAME(rows_ctx) ctx = {.width = width, .flag = flag};
    if (HOLD(&held, args[0], 0, rows * width, 0, "x", (T **)&ctx.x) < 0 ||
        HOLD(&held, args[1], 1, rows, 0, "out", &ctx.out) < 0)
        return NULL;
    return run_rows(&held, rows, width, grain, threads, fn, &ctx);
}

/* logsumexp(x, out, rows, width, threads) */
static PyObject *NAME(logsumexp)(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return NAME(per_row)(args, nargs, 5, "logsumexp", NAME(logsumexp_range), GRAIN_ELEMENTS);
}

/* row_sums(x, out, rows, width, mean, threads): the sum (mean) of each row */
static PyObject *NAME(row_sums)(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return NAME(per_row)(args, nargs, 6, "row_sums", NAME(row_sums_range), REDUCE_GRAIN_ELEMENTS);
}

/* row_extrema(x, out, rows, width, largest, threads): the max (min) of each non-empty row */
static PyObject *NAME(row_extrema)(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return NAME(per_row)(args, nargs, 6, "row_extrema", NAME(row_extrema_range), REDUCE_GRAIN_ELEMENTS);
}

/* layer_norm(x, weight|None, bias|None, out, mean, rstd, rows, width, eps, threads) */
static PyObject *NAME(layer_norm)(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("layer_norm", nargs, 10);
    Py_ssize_t rows, width;
    int threads;
    if (shape_args(args, nargs, 6, &rows, &width, &threads) < 0) return NULL;
    double eps = PyFloat_AsDouble(args[8]);
    if (eps == -1.0 && PyErr_Occurred()) return NULL;
    volta_held held = {.count = 0};
    NAME(norm_ctx) ctx = {.rows = rows, .width = width, .eps = eps};
    if (HOLD(&held, args[0], 0, rows * width, 0, "x", (T **)&ctx.x) < 0 ||
        HOLD(&held, args[1], 0, width, 1, "weight", (T **)&ctx.weight) < 0 ||
        HOLD(&held, args[2], 0, width, 1, "bias", (T **)&ctx.bias) < 0 ||
        HOLD(&held, args[3], 1, rows * width, 0, "out", &ctx.out) < 0 ||
        HOLD(&held, args[4], 1, rows, 0, "mean", &ctx.mean) < 0 ||
        HOLD(&held, args[5], 1, rows, 0, "rstd", &ctx.rstd) < 0)
        return NULL;
    return run_rows(&held, rows, width, GRAIN_ELEMENTS, threads, NAME(layer_norm_range), &ctx);
}

/* layer_norm_backward(grad, x, mean, rstd, weight|None, grad_input|None, grad_weight|None,
 *                     grad_bias|None, rows, width, threads) */
static PyObject *NAME(layer_norm_backward)(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("layer_norm_backward", nargs, 11);
    Py_ssize_t rows, width;
    int threads;
    if (shape_args(args, nargs, 8, &rows, &width, &threads) < 0) return NULL;
    volta_held held = {.count = 0};
    NAME(norm_ctx) ctx = {.rows = rows, .width = width};
    if (HOLD(&held, args[0], 0, rows * width, 0, "grad", (T **)&ctx.grad) < 0 ||
        HOLD(&held, args[1], 0, rows * width, 0, "x", (T **)&ctx.x) < 0 ||
        HOLD(&held, args[2], 0, rows, 0, "mean", &ctx.mean) < 0 ||
        HOLD(&held, args[3], 0, rows, 0, "rstd", &ctx.rstd) < 0 ||
        HOLD(&held, args[4], 0, width, 1, "weight", (T **)&ctx.weight) < 0 ||
        HOLD(&held, args[5], 1, rows * width, 1, "grad_input", &ctx.out) < 0 ||
        HOLD(&held, args[6], 1, width, 1, "grad_weight", &ctx.grad_weight) < 0 ||
        HOLD(&held, args[7], 1, width, 1, "grad_bias", &ctx.grad_bias) < 0)
        return NULL;
    ctx.slabs = (rows + SLAB - 1) / SLAB;
    int params = (ctx.grad_weight != NULL) + (ctx.grad_bias != NULL);
    T *partials = NULL;
    if (params && rows && width) {
        if ((size_t)ctx.slabs > PY_SSIZE_T_MAX / sizeof(T) / 2 / (size_t)width ||
            !(partials = PyMem_RawMalloc(sizeof(T) * params * ctx.slabs * width))) {
            volta_release_held(&held);
            return PyErr_NoMemory();
        }
        ctx.slab_weight = ctx.grad_weight ? partials : NULL;
        ctx.slab_bias = ctx.grad_bias ? partials + (params - 1) * ctx.slabs * width : NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    volta_parallel(rows, row_grain(width, GRAIN_ELEMENTS), threads, NAME(layer_norm_backward_range),
                   &ctx);
    if (params) {
        if (!rows) { /* no rows: zero gradients */
            if (ctx.grad_weight) memset(ctx.grad_weight, 0, sizeof(T) * width);
            if (ctx.grad_bias) memset(ctx.grad_bias, 0, sizeof(T) * width);
        } else {
            volta_parallel(width, row_grain(ctx.slabs, REDUCE_GRAIN_ELEMENTS), threads,
                           NAME(slab_sums_range), &ctx);
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(partials);
    volta_release_held(&held);
    Py_RETURN_NONE;
}

