/* Kernels over the planes of a float32 (N, C, L) array, C-contiguous (a feature map with its
 * spatial dims flattened into L): the sum of each plane (global average pooling), and the
 * passes of batch norm: the per-plane sums its channel statistics are made of, the per-channel
 * affine map of its forward, and the sums and input gradient of its backward
 * (Note [native kernel contract]).
 *
 * Every loop runs over the N * C planes, split over threads by plane: a channel's statistics are
 * the sums of its N planes, which the Python side adds in a fixed order, so the work splits
 * evenly however few channels there are and results do not depend on the thread count.
 *
 * Planes are summed as Note [sums in blocks] (common.h) says; plane sums come back in double.
 */
#include "common.h"

/* Elements per thread below which one thread is faster (OpenMP's hand-off costs a few us); the
 * same grains as rowwise.c's, where they were measured on the same two-core machine. */
#define GRAIN_ELEMENTS 32768
#define REDUCE_GRAIN_ELEMENTS 65536

/* ---- arguments ---------------------------------------------------------------------------- */

typedef struct {
    Py_ssize_t planes, channels, length; /* planes = N * C; length = L */
    int threads;
} shape;

/* Every kernel's arguments end in (N, C, L, threads): checks that `name` got `expected`
 * arguments and reads those four. 0, or -1 with an error set. */
static int shape_args(const char *name, PyObject *const *args, Py_ssize_t nargs,
                      Py_ssize_t expected, shape *s) {
    if (nargs != expected) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, expected,
                     nargs);
        return -1;
    }
    Py_ssize_t batch, first = nargs - 4;
    if (volta_arg_size(args[first], &batch) < 0 ||
        volta_arg_size(args[first + 1], &s->channels) < 0 ||
        volta_arg_size(args[first + 2], &s->length) < 0 ||
        volta_arg_threads(args[nargs - 1], &s->threads) < 0)
        return -1;
    if ((s->channels && batch > PY_SSIZE_T_MAX / s->channels) ||
        (s->length && batch * s->channels > PY_SSIZE_T_MAX / s->length)) {
        PyErr_SetString(PyExc_ValueError, "planes: N * C * L overflows");
        return -1;
    }
    s->planes = batch * s->channels;
    return 0;
}

static Py_ssize_t plane_grain(Py_ssize_t length, Py_ssize_t elements) {
    return length >= elements ? 1 : elements / (length > 0 ? length : 1);
}

/* ---- plane helpers (inlined into each vector clone) ----------------------------------------- */

/* *sum = sum(x - centre) and *squares = sum((x - centre)^2), Note [sums in blocks]; the
 * first corrects a mean that the float sum got slightly wrong (the corrected two-pass method) */
static inline void block_moments(const float *x, float centre, Py_ssize_t n, double *sum,
                                 double *squares) {
    double total = 0.0, total_squares = 0.0;
    for (Py_ssize_t b = 0; b < n; b += VOLTA_SUM_BLOCK) {
        Py_ssize_t e = b + VOLTA_SUM_BLOCK < n ? b + VOLTA_SUM_BLOCK : n;
        float s = 0.0f, q = 0.0f;
#pragma omp simd reduction(+ : s, q)
        for (Py_ssize_t j = b; j < e; j++) {
            float d = x[j] - centre;
            s += d;
            q += d * d;
        }
        total += s;
        total_squares += q;
    }
    *sum = total;
    *squares = total_squares;
}

/* ---- kernels -------------------------------------------------------------------------------- */

typedef struct {
    const float *x, *dy;
    const float *centre, *mean_dy, *slope, *scale, *shift; /* per channel */
    float *out;
    double *sums, *dots; /* per plane (dots: the squares of plane_moments) */
    Py_ssize_t channels, length;
} planes_ctx;

VOLTA_VECTOR static void sums_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const planes_ctx *c = p;
    for (Py_ssize_t i = begin; i < end; i++)
        c->sums[i] = volta_block_sum(c->x + i * c->length, c->length);
}

VOLTA_VECTOR static void moments_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const planes_ctx *c = p;
    for (Py_ssize_t i = begin; i < end; i++)
        block_moments(c->x + i * c->length, c->centre[i % c->channels], c->length, &c->sums[i],
                      &c->dots[i]);
}

/* out = (x - centre) * scale + shift, per channel (batch norm's forward: scale = invstd *
 * weight, shift = bias): x * scale + (bias - mean * scale) would lose the low digits of values
 * far from zero. No centre or shift where they are NULL. */
VOLTA_VECTOR static void affine_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const planes_ctx *c = p;
    Py_ssize_t w = c->length;
    for (Py_ssize_t i = begin; i < end; i++) {
        const float *x = c->x + i * w;
        float *o = c->out + i * w;
        Py_ssize_t ch = i % c->channels;
        float a = c->scale[ch];
        if (c->shift) {
            float m = c->centre ? c->centre[ch] : 0.0f, b = c->shift[ch];
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] = (x[j] - m) * a + b;
        } else {
#pragma omp simd
            for (Py_ssize_t j = 0; j < w; j++) o[j] = x[j] * a;
        }
    }
}

/* sums[i] = sum(dy), dots[i] = sum(dy * (x - centre)) of each plane */
VOLTA_VECTOR static void grad_sums_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const planes_ctx *c = p;
    Py_ssize_t w = c->length;
    for (Py_ssize_t i = begin; i < end; i++) {
        const float *x = c->x + i * w, *g = c->dy + i * w;
        volta_block_grad_sums(g, NULL, x, c->centre[i % c->channels], w, &c->sums[i],
                              &c->dots[i]);
    }
}

/* out = (dy - mean_dy - (x - centre) * slope) * scale, per channel: batch norm's training
 * input gradient (mean_dy = sum(dy) / n, slope = sum(dy * (x - mean)) * invstd^2 / n,
 * scale = invstd * weight), as PyTorch computes it. */
VOLTA_VECTOR static void grad_input_range(void *p, Py_ssize_t begin, Py_ssize_t end) {
    const planes_ctx *c = p;
    Py_ssize_t w = c->length;
    for (Py_ssize_t i = begin; i < end; i++) {
        const float *x = c->x + i * w, *g = c->dy + i * w;
        float *o = c->out + i * w;
        Py_ssize_t ch = i % c->channels;
        float centre = c->centre[ch], mean_dy = c->mean_dy[ch], slope = c->slope[ch];
        float scale = c->scale[ch];
#pragma omp simd
        for (Py_ssize_t j = 0; j < w; j++) o[j] = (g[j] - mean_dy - (x[j] - centre) * slope) * scale;
    }
}

static PyObject *run(volta_range_fn fn, planes_ctx *ctx, const shape *s, Py_ssize_t grain,
                     volta_held *held) {
    return volta_run_held(held, s->planes, plane_grain(s->length, grain), s->threads, fn, ctx);
}

/* plane_sums(x, sums, N, C, L, threads): sums[i] (float64) = the sum of plane i */
static PyObject *plane_sums(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    shape s;
    if (shape_args("plane_sums", args, nargs, 6, &s) < 0) return NULL;
    volta_held held = {.count = 0};
    planes_ctx ctx = {.channels = s.channels, .length = s.length};
    if (volta_hold_f32(&held, args[0], 0, s.planes * s.length, 0, "x", (float **)&ctx.x) < 0 ||
        volta_hold_f64(&held, args[1], 1, s.planes, 0, "sums", &ctx.sums) < 0)
        return NULL;
    return run(sums_range, &ctx, &s, REDUCE_GRAIN_ELEMENTS, &held);
}

/* plane_moments(x, centre, sums, squares, N, C, L, threads): per plane (float64) sums of
 * x - centre[c] and of (x - centre[c])^2 */
static PyObject *plane_moments(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    shape s;
    if (shape_args("plane_moments", args, nargs, 8, &s) < 0) return NULL;
    volta_held held = {.count = 0};
    planes_ctx ctx = {.channels = s.channels, .length = s.length};
    if (volta_hold_f32(&held, args[0], 0, s.planes * s.length, 0, "x", (float **)&ctx.x) < 0 ||
        volta_hold_f32(&held, args[1], 0, s.channels, 0, "centre", (float **)&ctx.centre) < 0 ||
        volta_hold_f64(&held, args[2], 1, s.planes, 0, "sums", &ctx.sums) < 0 ||
        volta_hold_f64(&held, args[3], 1, s.planes, 0, "squares", &ctx.dots) < 0)
        return NULL;
    return run(moments_range, &ctx, &s, REDUCE_GRAIN_ELEMENTS, &held);
}

/* plane_affine(x, centre, scale, shift, out, N, C, L, threads): out = (x - centre[c]) *
 * scale[c] + shift[c]; centre and shift both None: out = x * scale[c] */
static PyObject *plane_affine(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    shape s;
    if (shape_args("plane_affine", args, nargs, 9, &s) < 0) return NULL;
    volta_held held = {.count = 0};
    planes_ctx ctx = {.channels = s.channels, .length = s.length};
    Py_ssize_t size = s.planes * s.length;
    if (volta_hold_f32(&held, args[0], 0, size, 0, "x", (float **)&ctx.x) < 0 ||
        volta_hold_f32(&held, args[1], 0, s.channels, 1, "centre", (float **)&ctx.centre) < 0 ||
        volta_hold_f32(&held, args[2], 0, s.channels, 0, "scale", (float **)&ctx.scale) < 0 ||
        volta_hold_f32(&held, args[3], 0, s.channels, 1, "shift", (float **)&ctx.shift) < 0 ||
        volta_hold_f32(&held, args[4], 1, size, 0, "out", &ctx.out) < 0)
        return NULL;
    if (!ctx.centre != !ctx.shift) {
        volta_release_held(&held);
        PyErr_SetString(PyExc_ValueError, "planes: plane_affine takes centre and shift together");
        return NULL;
    }
    return run(affine_range, &ctx, &s, GRAIN_ELEMENTS, &held);
}

/* dy, x and centre[c]: the first three arguments of both backward passes */
static int hold_backward_inputs(volta_held *held, PyObject *const *args, const shape *s,
                                planes_ctx *ctx) {
    Py_ssize_t size = s->planes * s->length;
    if (volta_hold_f32(held, args[0], 0, size, 0, "dy", (float **)&ctx->dy) < 0 ||
        volta_hold_f32(held, args[1], 0, size, 0, "x", (float **)&ctx->x) < 0)
        return -1;
    return volta_hold_f32(held, args[2], 0, s->channels, 0, "centre", (float **)&ctx->centre);
}

/* plane_grad_sums(dy, x, centre, sums, dots, N, C, L, threads): per plane (float64) sums of dy
 * and of dy * (x - centre[c]) */
static PyObject *plane_grad_sums(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    shape s;
    if (shape_args("plane_grad_sums", args, nargs, 9, &s) < 0) return NULL;
    volta_held held = {.count = 0};
    planes_ctx ctx = {.channels = s.channels, .length = s.length};
    if (hold_backward_inputs(&held, args, &s, &ctx) < 0 ||
        volta_hold_f64(&held, args[3], 1, s.planes, 0, "sums", &ctx.sums) < 0 ||
        volta_hold_f64(&held, args[4], 1, s.planes, 0, "dots", &ctx.dots) < 0)
        return NULL;
    return run(grad_sums_range, &ctx, &s, REDUCE_GRAIN_ELEMENTS, &held);
}

/* plane_grad_input(dy, x, centre, mean_dy, slope, scale, out, N, C, L, threads):
 * out = (dy - mean_dy[c] - (x - centre[c]) * slope[c]) * scale[c] */
static PyObject *plane_grad_input(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    shape s;
    if (shape_args("plane_grad_input", args, nargs, 11, &s) < 0) return NULL;
    volta_held held = {.count = 0};
    planes_ctx ctx = {.channels = s.channels, .length = s.length};
    if (hold_backward_inputs(&held, args, &s, &ctx) < 0 ||
        volta_hold_f32(&held, args[3], 0, s.channels, 0, "mean_dy", (float **)&ctx.mean_dy) < 0 ||
        volta_hold_f32(&held, args[4], 0, s.channels, 0, "slope", (float **)&ctx.slope) < 0 ||
        volta_hold_f32(&held, args[5], 0, s.channels, 0, "scale", (float **)&ctx.scale) < 0 ||
        volta_hold_f32(&held, args[6], 1, s.planes * s.length, 0, "out", &ctx.out) < 0)
        return NULL;
    return run(grad_input_range, &ctx, &s, GRAIN_ELEMENTS, &held);
}

static PyMethodDef methods[] = {
    VOLTA_METHOD(plane_sums, "sums[i] = the float64 sum of plane i of an (N, C, L) float32 array"),
    VOLTA_METHOD(plane_moments, "per plane sums of x - centre[c] and of (x - centre[c])^2"),
    VOLTA_METHOD(plane_affine, "out = (x - centre[c]) * scale[c] + shift[c] by channel"),
    VOLTA_METHOD(plane_grad_sums, "per plane sums of dy and of dy * (x - centre[c])"),
    VOLTA_METHOD(plane_grad_input, "out = (dy - mean_dy[c] - (x - centre[c]) * slope[c]) * scale[c]"),
    {NULL, NULL, 0, NULL},
};

VOLTA_MODULE(planes)
