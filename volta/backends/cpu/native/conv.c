/* Convolution and pooling data movement, float32 (Note [native kernel contract]).
 *
 * The convolutions stay im2col + GEMM (the GEMMs are numpy's BLAS, on its own threads); what is
 * here are the passes around the GEMMs that numpy runs on one thread (Note [native
 * convolution] and Note [tap layouts] in numpy_nn.py): im2col (a convolution's input columns)
 * and col2im (their adjoint: columns summed back into input planes), in the exact layout and
 * the wide one, and the moves between a GEMM's (Cout, N*Q) rows and (N, Cout, *out) feature
 * maps (with the bias). Max pooling (forward with indices, backward) runs here whole.
 *
 * Every kernel sees three spatial dims (D, H, W): 1-d and 2-d maps come in with leading
 * dims of size 1. A geometry is a tuple of 20 ints:
 * (N, C, D, H, W, KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW, OD, OH, OW).
 * Loops are split over threads by whole rows or planes, each written by one thread, so results
 * do not depend on the thread count.
 */
#include "common.h"

#include <stdlib.h>

typedef struct {
    Py_ssize_t n, c, size[3], kernel[3], stride[3], pad[3], dilation[3], out[3];
} geometry;

/* Reads a 20-int geometry tuple; -1 with a Python error set on a bad one. */
static int read_geometry(PyObject *obj, geometry *g) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 20) {
        PyErr_SetString(PyExc_TypeError, "conv geometry: a tuple of 20 ints");
        return -1;
    }
    Py_ssize_t v[20];
    for (Py_ssize_t i = 0; i < 20; i++) {
        v[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(obj, i));
        if (v[i] == -1 && PyErr_Occurred()) return -1;
    }
    g->n = v[0];
    g->c = v[1];
    for (int j = 0; j < 3; j++) {
        g->size[j] = v[2 + j];
        g->kernel[j] = v[5 + j];
        g->stride[j] = v[8 + j];
        g->pad[j] = v[11 + j];
        g->dilation[j] = v[14 + j];
        g->out[j] = v[17 + j];
    }
    int ok = g->n >= 0 && g->c >= 0;
    for (int j = 0; j < 3; j++)
        ok = ok && g->size[j] >= 0 && g->kernel[j] >= 1 && g->stride[j] >= 1 && g->pad[j] >= 0 &&
             g->dilation[j] >= 1 && g->out[j] >= 0;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "conv geometry: sizes must be non-negative, kernel, "
                                          "stride and dilation positive");
        return -1;
    }
    return 0;
}

static Py_ssize_t plane_size(const geometry *g) { return g->size[0] * g->size[1] * g->size[2]; }
static Py_ssize_t out_plane_size(const geometry *g) { return g->out[0] * g->out[1] * g->out[2]; }
static Py_ssize_t taps(const geometry *g) { return g->kernel[0] * g->kernel[1] * g->kernel[2]; }

/* Elements a thread should move at least for the split to pay (a few us of OpenMP wake-up). */
#define GRAIN_ELEMENTS 16384

static Py_ssize_t grain_for(Py_ssize_t elements_per_item) {
    Py_ssize_t per = elements_per_item > 0 ? elements_per_item : 1;
    Py_ssize_t grain = GRAIN_ELEMENTS / per;
    return grain > 0 ? grain : 1;
}

/* The outputs o in [0, count) whose input position o*stride - pad + offset lies in [0, size):
 * [*lo, *hi). */
static void valid_range(Py_ssize_t count, Py_ssize_t stride, Py_ssize_t pad, Py_ssize_t offset,
                        Py_ssize_t size, Py_ssize_t *lo, Py_ssize_t *hi) {
    Py_ssize_t shift = offset - pad; /* input position of output 0 */
    Py_ssize_t first = shift >= 0 ? 0 : (-shift + stride - 1) / stride;
    Py_ssize_t last = size - 1 - shift < 0 ? -1 : (size - 1 - shift) / stride; /* inclusive */
    if (first > count) first = count;
    if (last + 1 < first) last = first - 1;
    if (last + 1 > count) last = count - 1;
    *lo = first;
    *hi = last + 1;
}

/* ---- im2col / col2im ---------------------------------------------------------------------- */

/* Columns: one row per (n, c, tap) of out_plane_size values, row (n, c, tap) at
 * (c*K + tap)*N + n: (C*K, N*Q), one GEMM for a whole chunk of samples. */
typedef struct {
    geometry g;
    const float *x;
    float *cols;
} columns_ctx;

static Py_ssize_t column_row(const geometry *g, Py_ssize_t n, Py_ssize_t c, Py_ssize_t tap) {
    return (c * taps(g) + tap) * g->n + n;
}

/* Where a tap sits in the window: (kd, kh, kw). */
static inline void tap_window(const geometry *g, Py_ssize_t tap, Py_ssize_t *kd, Py_ssize_t *kh,
                              Py_ssize_t *kw) {
    *kd = tap / (g->kernel[1] * g->kernel[2]);
    *kh = tap / g->kernel[2] % g->kernel[1];
    *kw = tap % g->kernel[2];
}

/* The input coordinate along `dim` that output `o` reads at window position `k` (it may lie in
 * the padding: below 0 or from g->size[dim] on). */
static inline Py_ssize_t input_at(const geometry *g, int dim, Py_ssize_t o, Py_ssize_t k) {
    return o * g->stride[dim] - g->pad[dim] + k * g->dilation[dim];
}

/* A column row's W loop for window column kw: the outputs [*lo, *hi) that read inside the
 * input row; returns the input column of output 0. */
static inline Py_ssize_t tap_row_span(const geometry *g, Py_ssize_t kw, Py_ssize_t *lo,
                                      Py_ssize_t *hi) {
    valid_range(g->out[2], g->stride[2], g->pad[2], kw * g->dilation[2], g->size[2], lo, hi);
    return input_at(g, 2, 0, kw);
}

VOLTA_VECTOR static void im2col_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const columns_ctx *cx = ctx;
    const geometry *g = &cx->g;
    Py_ssize_t k = taps(g), q = out_plane_size(g), plane = plane_size(g);
    Py_ssize_t ow = g->out[2], sw = g->stride[2];
    for (Py_ssize_t item = begin; item < end; item++) { /* item = (n*C + c)*K + tap */
        Py_ssize_t tap = item % k, nc = item / k, n = nc / g->c, c = nc % g->c;
        Py_ssize_t kd, kh, kw, lo, hi;
        tap_window(g, tap, &kd, &kh, &kw);
        const float *src = cx->x + nc * plane;
        float *dst = cx->cols + column_row(g, n, c, tap) * q;
        Py_ssize_t shift_w = tap_row_span(g, kw, &lo, &hi);
        for (Py_ssize_t od = 0; od < g->out[0]; od++) {
            Py_ssize_t id = input_at(g, 0, od, kd);
            for (Py_ssize_t oh = 0; oh < g->out[1]; oh++, dst += ow) {
                Py_ssize_t ih = input_at(g, 1, oh, kh);
                if (id < 0 || id >= g->size[0] || ih < 0 || ih >= g->size[1] || lo >= hi) {
                    memset(dst, 0, (size_t)ow * sizeof(float));
                    continue;
                }
                const float *row = src + (id * g->size[1] + ih) * g->size[2] + shift_w;
                for (Py_ssize_t o = 0; o < lo; o++) dst[o] = 0.0f;
                if (sw == 1)
                    for (Py_ssize_t o = lo; o < hi; o++) dst[o] = row[o];
                else
                    for (Py_ssize_t o = lo; o < hi; o++) dst[o] = row[o * sw];
                for (Py_ssize_t o = hi; o < ow; o++) dst[o] = 0.0f;
            }
        }
    }
}

/* col2im: each (n, c) input plane is zeroed, then every tap's column row is added into it (in
 * tap order, as PyTorch's col2im adds them). */
VOLTA_VECTOR static void col2im_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const columns_ctx *cx = ctx;
    const geometry *g = &cx->g;
    Py_ssize_t k = taps(g), q = out_plane_size(g), plane = plane_size(g);
    Py_ssize_t ow = g->out[2], sw = g->stride[2];
    for (Py_ssize_t nc = begin; nc < end; nc++) {
        Py_ssize_t n = nc / g->c, c = nc % g->c;
        float *dst_plane = (float *)cx->x + nc * plane; /* the output here */
        memset(dst_plane, 0, (size_t)plane * sizeof(float));
        for (Py_ssize_t tap = 0; tap < k; tap++) {
            Py_ssize_t kd, kh, kw, lo, hi;
            tap_window(g, tap, &kd, &kh, &kw);
            const float *src = cx->cols + column_row(g, n, c, tap) * q;
            Py_ssize_t shift_w = tap_row_span(g, kw, &lo, &hi);
            for (Py_ssize_t od = 0; od < g->out[0]; od++) {
                Py_ssize_t id = input_at(g, 0, od, kd);
                for (Py_ssize_t oh = 0; oh < g->out[1]; oh++, src += ow) {
                    Py_ssize_t ih = input_at(g, 1, oh, kh);
                    if (id < 0 || id >= g->size[0] || ih < 0 || ih >= g->size[1]) continue;
                    float *row = dst_plane + (id * g->size[1] + ih) * g->size[2] + shift_w;
                    if (sw == 1)
                        for (Py_ssize_t o = lo; o < hi; o++) row[o] += src[o];
                    else
                        for (Py_ssize_t o = lo; o < hi; o++) row[o * sw] += src[o];
                }
            }
        }
    }
}

/* ---- the wide layout ---------------------------------------------------------------------
 * (Note [tap layouts] in numpy_nn.py.) For stride 1 over a zero-padded input, a tap's column
 * row is one run of L = (flat offset of the last output) + 1 values of the padded plane,
 * starting at the tap's own offset: rows of a few floats become one copy of hundreds. Here the
 * geometry's sizes are the padded plane's, its padding 0 and its strides 1. */

static Py_ssize_t wide_length(const geometry *g) {
    return ((g->out[0] - 1) * g->size[1] + (g->out[1] - 1)) * g->size[2] + g->out[2];
}

static Py_ssize_t tap_offset(const geometry *g, Py_ssize_t tap) {
    Py_ssize_t kd, kh, kw;
    tap_window(g, tap, &kd, &kh, &kw);
    return ((kd * g->dilation[0]) * g->size[1] + kh * g->dilation[1]) * g->size[2] +
           kw * g->dilation[2];
}

static void wide_columns_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const columns_ctx *cx = ctx;
    const geometry *g = &cx->g;
    Py_ssize_t k = taps(g), plane = plane_size(g), len = wide_length(g);
    for (Py_ssize_t item = begin; item < end; item++) { /* (c*K + tap)*N + n: the row order */
        Py_ssize_t n = item % g->n, tap = item / g->n % k, c = item / g->n / k;
        memcpy(cx->cols + item * len, cx->x + (n * g->c + c) * plane + tap_offset(g, tap),
               (size_t)len * sizeof(float));
    }
}

VOLTA_VECTOR static void wide_col2im_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const columns_ctx *cx = ctx;
    const geometry *g = &cx->g;
    Py_ssize_t k = taps(g), plane = plane_size(g), len = wide_length(g);
    for (Py_ssize_t nc = begin; nc < end; nc++) {
        Py_ssize_t n = nc / g->c, c = nc % g->c;
        float *dst_plane = (float *)cx->x + nc * plane;
        memset(dst_plane, 0, (size_t)plane * sizeof(float));
        for (Py_ssize_t tap = 0; tap < k; tap++) {
            float *restrict dst = dst_plane + tap_offset(g, tap);
            const float *restrict src = cx->cols + ((c * k + tap) * g->n + n) * len;
            for (Py_ssize_t i = 0; i < len; i++) dst[i] += src[i];
        }
    }
}

/* Whether a wide pass fits the geometry: stride 1, no padding, windows inside the planes. */
static int wide_fits(const geometry *g) {
    int ok = 1;
    for (int j = 0; j < 3; j++)
        ok = ok && g->stride[j] == 1 && g->pad[j] == 0 && g->out[j] >= 1 &&
             g->out[j] - 1 + g->dilation[j] * (g->kernel[j] - 1) < g->size[j];
    return ok;
}

/* Shared argument handling of the column passes, exact and wide: (image, cols, geometry,
 * threads). `image_writable` says which of the two is written; a column row is
 * out_plane_size(g) long in the exact layout, wide_length(g) in the wide one (whose image is
 * the padded planes). `per_plane`: fn's items are the N * C planes, else the column rows. */
static PyObject *columns_call(const char *name, PyObject *const *args, Py_ssize_t nargs,
                              int image_writable, volta_range_fn fn, int per_plane, int wide) {
    VOLTA_CHECK_NARGS(name, nargs, 4);
    columns_ctx ctx;
    int threads;
    if (read_geometry(args[2], &ctx.g) < 0 || volta_arg_threads(args[3], &threads) < 0)
        return NULL;
    const geometry *g = &ctx.g;
    if (wide && !wide_fits(g)) {
        PyErr_Format(PyExc_ValueError, "%s: stride 1, no padding, windows inside the planes",
                     name);
        return NULL;
    }
    volta_array a[2];
    if (volta_get_array(args[0], &a[0], image_writable) < 0) return NULL;
    if (volta_get_array(args[1], &a[1], !image_writable) < 0) {
        volta_release(&a[0]);
        return NULL;
    }
    Py_ssize_t rows = g->n * g->c * taps(g);
    Py_ssize_t row_length = wide ? wide_length(g) : out_plane_size(g);
    if (volta_float_kind(&a[0]) != 'f' || volta_float_kind(&a[1]) != 'f' ||
        a[0].size != g->n * g->c * plane_size(g) || a[1].size != rows * row_length) {
        volta_release_arrays(a, 2);
        PyErr_Format(PyExc_ValueError, "%s: float32 %s and columns of the geometry's sizes",
                     name, wide ? "planes" : "image");
        return NULL;
    }
    ctx.x = a[0].data;
    ctx.cols = a[1].data;
    Py_BEGIN_ALLOW_THREADS
    if (per_plane)
        volta_parallel_items(g->n * g->c, grain_for(taps(g) * row_length), threads, fn, &ctx);
    else
        volta_parallel_items(rows, grain_for(row_length), threads, fn, &ctx);
    Py_END_ALLOW_THREADS
    volta_release_arrays(a, 2);
    Py_RETURN_NONE;
}

/* im2col(x, cols, geometry, threads): the convolution's input columns. */
static PyObject *im2col(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return columns_call("im2col", args, nargs, 0, im2col_range, 0, 0);
}

/* col2im(image, cols, geometry, threads): image = the columns summed back. */
static PyObject *col2im(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return columns_call("col2im", args, nargs, 1, col2im_range, 1, 0);
}

/* wide_im2col(padded, cols, geometry, threads): (C*K, N*L) columns of a padded input. */
static PyObject *wide_im2col(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return columns_call("wide_im2col", args, nargs, 0, wide_columns_range, 0, 1);
}

/* wide_col2im(padded, cols, geometry, threads): the padded planes = the columns summed back. */
static PyObject *wide_col2im(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return columns_call("wide_col2im", args, nargs, 1, wide_col2im_range, 1, 1);
}

/* The arrays of the moves that add a bias: src (args[0]), dst (args[1], written) and the bias
 * (args[2]) into a[2] unless it is None. Returns whether there is a bias, or -1 with an error
 * set and nothing held. */
static int get_src_dst_bias(PyObject *const *args, volta_array a[3]) {
    if (volta_get_arrays(args, 2, 1, a, &(char){0}) < 0) return -1;
    if (args[2] == Py_None) return 0;
    if (volta_get_array(args[2], &a[2], 0) < 0) {
        volta_release_arrays(a, 2);
        return -1;
    }
    return 1;
}

/* Between a GEMM's wide (A, N, L) rows and (N, A, *out) maps: to_maps picks the output
 * positions (plus a bias per A), from_maps places them and zeroes the rest. */
typedef struct {
    geometry g; /* sizes: the padded plane; out: the maps' */
    const float *src;
    float *dst;
    const float *bias;
    Py_ssize_t a;
} wide_maps_ctx;

VOLTA_VECTOR static void wide_to_maps_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const wide_maps_ctx *m = ctx;
    const geometry *g = &m->g;
    Py_ssize_t len = wide_length(g), q = out_plane_size(g), ow = g->out[2];
    for (Py_ssize_t item = begin; item < end; item++) { /* item = n*A + a: a map */
        Py_ssize_t n = item / m->a, a = item % m->a;
        const float *src = m->src + (a * g->n + n) * len;
        float *restrict dst = m->dst + item * q;
        float bias = m->bias ? m->bias[a] : 0.0f;
        for (Py_ssize_t od = 0; od < g->out[0]; od++)
            for (Py_ssize_t oh = 0; oh < g->out[1]; oh++, dst += ow) {
                const float *restrict row = src + (od * g->size[1] + oh) * g->size[2];
                if (m->bias)
                    for (Py_ssize_t o = 0; o < ow; o++) dst[o] = row[o] + bias;
                else
                    for (Py_ssize_t o = 0; o < ow; o++) dst[o] = row[o];
            }
    }
}

VOLTA_VECTOR static void wide_from_maps_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const wide_maps_ctx *m = ctx;
    const geometry *g = &m->g;
    Py_ssize_t len = wide_length(g), q = out_plane_size(g), ow = g->out[2];
    for (Py_ssize_t item = begin; item < end; item++) { /* item = a*N + n: a wide row */
        Py_ssize_t a = item / g->n, n = item % g->n;
        const float *restrict src = m->src + (n * m->a + a) * q;
        float *dst = m->dst + item * len;
        memset(dst, 0, (size_t)len * sizeof(float));
        for (Py_ssize_t od = 0; od < g->out[0]; od++)
            for (Py_ssize_t oh = 0; oh < g->out[1]; oh++, src += ow) {
                float *restrict row = dst + (od * g->size[1] + oh) * g->size[2];
                for (Py_ssize_t o = 0; o < ow; o++) row[o] = src[o];
            }
    }
}

/* Shared argument handling: (src, dst, bias_or_None, A, geometry, threads). */
static PyObject *wide_maps_call(const char *name, PyObject *const *args, Py_ssize_t nargs,
                                int to_maps) {
    VOLTA_CHECK_NARGS(name, nargs, 6);
    wide_maps_ctx ctx;
    ctx.a = PyLong_AsSsize_t(args[3]);
    if (ctx.a == -1 && PyErr_Occurred()) return NULL;
    if (read_geometry(args[4], &ctx.g) < 0) return NULL;
    int threads = (int)volta_arg_long(args[5]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    const geometry *g = &ctx.g;
    volta_array a[3];
    int has_bias = get_src_dst_bias(args, a);
    if (has_bias < 0) return NULL;
    int ok = ctx.a >= 0 && volta_float_kind(&a[0]) == 'f' &&
             (!has_bias || (volta_float_kind(&a[2]) == 'f' && a[2].size == ctx.a));
    for (int j = 0; j < 3 && ok; j++) ok = g->out[j] >= 1 && g->out[j] <= g->size[j];
    if (ok) {
        Py_ssize_t wide = ctx.a * g->n * wide_length(g), maps = ctx.a * g->n * out_plane_size(g);
        ok = a[0].size == (to_maps ? wide : maps) && a[1].size == (to_maps ? maps : wide);
    }
    if (!ok) {
        volta_release_arrays(a, 2 + has_bias);
        PyErr_Format(PyExc_ValueError, "%s: float32 wide rows and maps of the geometry's sizes",
                     name);
        return NULL;
    }
    ctx.src = a[0].data;
    ctx.dst = a[1].data;
    ctx.bias = has_bias ? a[2].data : NULL;
    Py_BEGIN_ALLOW_THREADS
    volta_parallel_items(ctx.a * g->n, grain_for(wide_length(g)), threads,
                   to_maps ? wide_to_maps_range : wide_from_maps_range, &ctx);
    Py_END_ALLOW_THREADS
    volta_release_arrays(a, 2 + has_bias);
    Py_RETURN_NONE;
}

/* wide_to_maps(rows, maps, bias_or_None, A, geometry, threads): maps (N, A, *out) from wide
 * rows (A, N, L), plus bias[a]. */
static PyObject *wide_to_maps(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return wide_maps_call("wide_to_maps", args, nargs, 1);
}

/* wide_from_maps(maps, rows, None, A, geometry, threads): wide rows (A, N, L) from maps
 * (N, A, *out), zero off the outputs. */
static PyObject *wide_from_maps(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return wide_maps_call("wide_from_maps", args, nargs, 0);
}

/* ---- (A, B, Q) -> (B, A, Q) ------------------------------------------------------------- */

typedef struct {
    const float *src;
    float *dst;
    const float *bias; /* per a, or NULL */
    Py_ssize_t a, b, q;
} swap_ctx;

VOLTA_VECTOR static void swap_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const swap_ctx *s = ctx;
    for (Py_ssize_t item = begin; item < end; item++) { /* item = b*A + a, a destination row */
        Py_ssize_t bi = item / s->a, ai = item % s->a;
        const float *src = s->src + (ai * s->b + bi) * s->q;
        float *dst = s->dst + item * s->q;
        if (s->bias) {
            float bias = s->bias[ai];
            for (Py_ssize_t i = 0; i < s->q; i++) dst[i] = src[i] + bias;
        } else {
            memcpy(dst, src, (size_t)s->q * sizeof(float));
        }
    }
}

/* swap_leading(src, dst, bias_or_None, A, B, threads): dst[b, a, :] = src[a, b, :] (+ bias[a]),
 * both float32 with A*B*Q elements. */
static PyObject *swap_leading(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("swap_leading", nargs, 6);
    Py_ssize_t count_a = PyLong_AsSsize_t(args[3]), count_b = PyLong_AsSsize_t(args[4]);
    int threads = (int)volta_arg_long(args[5]);
    if (PyErr_Occurred()) return NULL;
    volta_array a[3];
    int has_bias = get_src_dst_bias(args, a);
    if (has_bias < 0) return NULL;
    Py_ssize_t rows = count_a * count_b;
    int ok = count_a > 0 && count_b > 0 && volta_float_kind(&a[0]) == 'f' &&
             a[0].size == a[1].size && a[0].size % rows == 0 &&
             (!has_bias || (volta_float_kind(&a[2]) == 'f' && a[2].size == count_a));
    if (!ok) {
        volta_release_arrays(a, 2 + has_bias);
        if (count_a == 0 || count_b == 0) Py_RETURN_NONE; /* nothing to move */
        PyErr_SetString(PyExc_ValueError, "swap_leading: float32 arrays of A*B*Q elements");
        return NULL;
    }
    swap_ctx ctx = {a[0].data, a[1].data, has_bias ? a[2].data : NULL, count_a, count_b,
                    a[0].size / rows};
    Py_BEGIN_ALLOW_THREADS
    volta_parallel_items(rows, grain_for(ctx.q), threads, swap_range, &ctx);
    Py_END_ALLOW_THREADS
    volta_release_arrays(a, 2 + has_bias);
    Py_RETURN_NONE;
}

/* ---- max pooling ------------------------------------------------------------------------- */

typedef struct {
    geometry g; /* n = planes, c = 1 */
    const float *x;
    float *out;
    int64_t *indices;
    int failed; /* a thread could not allocate its row buffers */
    int inside; /* every window inside the plane: origin and tap_offset are set */
    const int32_t *origin;     /* per output: its window's first tap in the plane */
    const int32_t *tap_offset; /* per tap: its offset from the window's first tap */
} max_pool_ctx;

/* PyTorch's CPU rule: taps in row-major order, a tap wins if it is greater than the best so
 * far or NaN (so the last NaN wins); a window whose taps are all -inf reports -inf at its
 * first in-bounds tap. A row of outputs is updated one tap at a time (each output still sees
 * its taps in row-major order), keeping the winning tap's number in an int32 lane beside its
 * float value, so the loop over the row vectorises; the numbers become flat indices at the end
 * of the row. */
VOLTA_VECTOR static void max_pool_row(const float *restrict row, float *restrict best,
                                      int32_t *restrict tap, int32_t number, Py_ssize_t lo,
                                      Py_ssize_t hi, Py_ssize_t stride, Py_ssize_t shift) {
    if (stride == 1) {
        for (Py_ssize_t o = lo; o < hi; o++) {
            float v = row[o + shift];
            int take = (v > best[o]) | (v != v);
            best[o] = take ? v : best[o];
            tap[o] = take ? number : tap[o];
        }
        return;
    }
    for (Py_ssize_t o = lo; o < hi; o++) {
        float v = row[o * stride + shift];
        int take = (v > best[o]) | (v != v);
        best[o] = take ? v : best[o];
        tap[o] = take ? number : tap[o];
    }
}

/* Windows that all lie inside the plane (no padding reached): each tap reads the plane at a
 * fixed offset from its window's origin, so one loop over all the plane's outputs (origins in
 * a table, the reads gathered) covers a tap. */
VOLTA_VECTOR static void max_pool_inside(const float *restrict src, float *restrict best,
                                         int32_t *restrict tap, const int32_t *restrict origin,
                                         const int32_t *restrict tap_offset, Py_ssize_t q,
                                         Py_ssize_t taps_count) {
    for (Py_ssize_t j = 0; j < q; j++) {
        best[j] = -INFINITY;
        tap[j] = 0;
    }
    for (int32_t t = 0; t < taps_count; t++) {
        const float *at = src + tap_offset[t];
        for (Py_ssize_t j = 0; j < q; j++) {
            float v = at[origin[j]];
            int take = (v > best[j]) | (v != v);
            best[j] = take ? v : best[j];
            tap[j] = take ? t : tap[j];
        }
    }
}

static void max_pool_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const max_pool_ctx *m = ctx;
    const geometry *g = &m->g;
    Py_ssize_t plane = plane_size(g), q = out_plane_size(g);
    Py_ssize_t width = g->size[2], hw = g->size[1] * width;
    Py_ssize_t ow_count = g->out[2], sw = g->stride[2], pw = g->pad[2], dw = g->dilation[2];
    Py_ssize_t k_w = g->kernel[2], k_hw = g->kernel[1] * k_w;
    Py_ssize_t tap_count = m->inside ? q : ow_count; /* a plane's winners, or a row's */
    int32_t *tap = malloc((size_t)(tap_count > 0 ? tap_count : 1) * sizeof(int32_t));
    int64_t *offset = malloc((size_t)taps(g) * sizeof(int64_t)); /* of each tap in the plane */
    if (!tap || !offset) { /* caught after the region (out of memory) */
        free(tap);
        free(offset);
#pragma omp atomic write
        ((max_pool_ctx *)m)->failed = 1;
        return;
    }
    if (m->inside) {
        /* the first tap of each window is in bounds, and a window of -inf keeps tap 0 */
        for (Py_ssize_t p = begin; p < end; p++) {
            float *out = m->out + p * q;
            int64_t *idx = m->indices + p * q;
            max_pool_inside(m->x + p * plane, out, tap, m->origin, m->tap_offset, q, taps(g));
            for (Py_ssize_t j = 0; j < q; j++)
                idx[j] = (int64_t)m->origin[j] + m->tap_offset[tap[j]];
        }
        free(tap);
        free(offset);
        return;
    }
    for (Py_ssize_t p = begin; p < end; p++) {
        const float *src = m->x + p * plane;
        for (Py_ssize_t od = 0; od < g->out[0]; od++) {
            Py_ssize_t d0 = od * g->stride[0] - g->pad[0], dd = g->dilation[0];
            Py_ssize_t dlo, dhi;
            valid_range(g->kernel[0], dd, -d0, 0, g->size[0], &dlo, &dhi);
            for (Py_ssize_t oh = 0; oh < g->out[1]; oh++) {
                Py_ssize_t h0 = oh * g->stride[1] - g->pad[1], dh = g->dilation[1];
                Py_ssize_t hlo, hhi;
                valid_range(g->kernel[1], dh, -h0, 0, g->size[1], &hlo, &hhi);
                float *out = m->out + p * q + (od * g->out[1] + oh) * ow_count;
                int64_t *idx = m->indices + p * q + (od * g->out[1] + oh) * ow_count;
                for (Py_ssize_t ow = 0; ow < ow_count; ow++) {
                    out[ow] = -INFINITY;
                    tap[ow] = -1;
                }
                for (Py_ssize_t kd = dlo; kd < dhi; kd++)
                    for (Py_ssize_t kh = hlo; kh < hhi; kh++) {
                        Py_ssize_t base = (d0 + kd * dd) * hw + (h0 + kh * dh) * width;
                        for (Py_ssize_t kw = 0; kw < k_w; kw++) {
                            int32_t number = (int32_t)(kd * k_hw + kh * k_w + kw);
                            Py_ssize_t lo, hi, shift = kw * dw - pw;
                            offset[number] = base + shift;
                            valid_range(ow_count, sw, pw, kw * dw, width, &lo, &hi);
                            max_pool_row(src + base, out, tap, number, lo, hi, sw, shift);
                        }
                    }
                int64_t first = (d0 + dlo * dd) * hw + (h0 + hlo * dh) * width;
                for (Py_ssize_t ow = 0; ow < ow_count; ow++) {
                    Py_ssize_t w0 = ow * sw - pw;
                    idx[ow] = tap[ow] >= 0 ? offset[tap[ow]] + ow * sw
                                           : first + (w0 >= 0 ? w0 : w0 + (-w0 + dw - 1) / dw * dw);
                }
            }
        }
    }
    free(tap);
    free(offset);
}

/* max_pool(x, out, indices, geometry, threads): geometry with n = planes, c = 1. Windows
 * must each hold an in-bounds tap (the Python side's padding rule makes sure). */
static PyObject *max_pool(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("max_pool", nargs, 5);
    max_pool_ctx ctx;
    if (read_geometry(args[3], &ctx.g) < 0) return NULL;
    int threads = (int)volta_arg_long(args[4]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    volta_array a[3];
    if (volta_get_arrays(args, 2, 1, a, &(char){0}) < 0) return NULL;
    if (volta_get_array(args[2], &a[2], 1) < 0) {
        volta_release_arrays(a, 2);
        return NULL;
    }
    const geometry *g = &ctx.g;
    Py_ssize_t q = out_plane_size(g);
    int ok = g->c == 1 && volta_float_kind(&a[0]) == 'f' && a[2].itemsize == 8 &&
             a[0].size == g->n * plane_size(g) && a[1].size == g->n * q && a[2].size == g->n * q;
    for (int j = 0; j < 3 && ok; j++) /* every window starts inside the input or its padding */
        ok = g->pad[j] * 2 <= g->dilation[j] * (g->kernel[j] - 1) + 1 &&
             (g->out[j] - 1) * g->stride[j] < g->size[j] + g->pad[j];
    if (!ok) {
        volta_release_arrays(a, 3);
        PyErr_SetString(PyExc_ValueError, "max_pool: float32 input and output, int64 indices, "
                                          "of the geometry's sizes");
        return NULL;
    }
    ctx.x = a[0].data;
    ctx.out = a[1].data;
    ctx.indices = a[2].data;
    ctx.failed = 0;
    ctx.inside = plane_size(g) < INT32_MAX;
    for (int j = 0; j < 3; j++) /* no padding reached, first and last windows inside */
        ctx.inside = ctx.inside && g->pad[j] == 0 &&
                     (g->out[j] - 1) * g->stride[j] + g->dilation[j] * (g->kernel[j] - 1) <
                         g->size[j];
    int32_t *tables = NULL;
    if (ctx.inside) {
        tables = malloc((size_t)(q + taps(g) + 1) * sizeof(int32_t));
        if (!tables) {
            volta_release_arrays(a, 3);
            return PyErr_NoMemory();
        }
        int32_t *origin = tables, *tap_offset = tables + q;
        Py_ssize_t j = 0;
        for (Py_ssize_t od = 0; od < g->out[0]; od++)
            for (Py_ssize_t oh = 0; oh < g->out[1]; oh++)
                for (Py_ssize_t ow = 0; ow < g->out[2]; ow++)
                    origin[j++] = (int32_t)(((od * g->stride[0]) * g->size[1] +
                                             oh * g->stride[1]) * g->size[2] + ow * g->stride[2]);
        j = 0;
        for (Py_ssize_t kd = 0; kd < g->kernel[0]; kd++)
            for (Py_ssize_t kh = 0; kh < g->kernel[1]; kh++)
                for (Py_ssize_t kw = 0; kw < g->kernel[2]; kw++)
                    tap_offset[j++] = (int32_t)(((kd * g->dilation[0]) * g->size[1] +
                                                 kh * g->dilation[1]) * g->size[2] +
                                                kw * g->dilation[2]);
        ctx.origin = origin;
        ctx.tap_offset = tap_offset;
    }
    Py_BEGIN_ALLOW_THREADS
    volta_parallel_items(g->n, grain_for(q * taps(g)), threads, max_pool_range, &ctx);
    Py_END_ALLOW_THREADS
    free(tables);
    volta_release_arrays(a, 3);
    if (ctx.failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

typedef struct {
    const float *grad;
    const int64_t *indices;
    float *out;
    Py_ssize_t plane, q;
    int bad; /* an index outside its plane (set by any thread; read after the region) */
} max_pool_backward_ctx;

static void max_pool_backward_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    max_pool_backward_ctx *m = ctx;
    for (Py_ssize_t p = begin; p < end; p++) {
        float *out = m->out + p * m->plane;
        const float *grad = m->grad + p * m->q;
        const int64_t *idx = m->indices + p * m->q;
        memset(out, 0, (size_t)m->plane * sizeof(float));
        for (Py_ssize_t i = 0; i < m->q; i++) {
            int64_t at = idx[i];
            if (at < 0 || at >= m->plane) {
#pragma omp atomic write
                m->bad = 1;
                continue;
            }
            out[at] += grad[i];
        }
    }
}

/* max_pool_backward(grad, indices, out, planes, threads): out (planes, plane) = grad (planes,
 * q) added at the per-plane indices. */
static PyObject *max_pool_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("max_pool_backward", nargs, 5);
    Py_ssize_t planes = PyLong_AsSsize_t(args[3]);
    int threads = (int)volta_arg_long(args[4]);
    if (PyErr_Occurred()) return NULL;
    volta_array a[3];
    if (volta_get_array(args[0], &a[0], 0) < 0) return NULL;
    if (volta_get_array(args[1], &a[1], 0) < 0) {
        volta_release(&a[0]);
        return NULL;
    }
    if (volta_get_array(args[2], &a[2], 1) < 0) {
        volta_release_arrays(a, 2);
        return NULL;
    }
    int ok = planes > 0 && volta_float_kind(&a[0]) == 'f' && volta_float_kind(&a[2]) == 'f' &&
             a[1].itemsize == 8 && a[0].size == a[1].size && a[0].size % planes == 0 &&
             a[2].size % planes == 0;
    if (!ok) {
        volta_release_arrays(a, 3);
        if (planes == 0) Py_RETURN_NONE;
        PyErr_SetString(PyExc_ValueError, "max_pool_backward: float32 grad and output, int64 "
                                          "indices, split into `planes` planes");
        return NULL;
    }
    max_pool_backward_ctx ctx = {a[0].data, a[1].data, a[2].data, a[2].size / planes,
                                 a[0].size / planes, 0};
    Py_BEGIN_ALLOW_THREADS
    volta_parallel_items(planes, grain_for(ctx.plane + 2 * ctx.q), threads, max_pool_backward_range,
                   &ctx);
    Py_END_ALLOW_THREADS
    volta_release_arrays(a, 3);
    if (ctx.bad) {
        PyErr_SetString(PyExc_IndexError, "max_pool_backward: an index lies outside its plane");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    VOLTA_METHOD(im2col, "convolution input columns"),
    VOLTA_METHOD(col2im, "columns summed into planes"),
    VOLTA_METHOD(wide_im2col, "wide-layout columns of a padded input"),
    VOLTA_METHOD(wide_col2im, "wide-layout columns summed into padded planes"),
    VOLTA_METHOD(wide_to_maps, "wide GEMM rows to feature maps, plus a bias"),
    VOLTA_METHOD(wide_from_maps, "feature maps to wide GEMM rows, zero off the outputs"),
    VOLTA_METHOD(swap_leading, "(A, B, Q) -> (B, A, Q), plus an optional bias per A"),
    VOLTA_METHOD(max_pool, "max pooling with flat per-plane indices"),
    VOLTA_METHOD(max_pool_backward, "gradient added at the max pooling indices"),
    {NULL, NULL, 0, NULL},
};

VOLTA_MODULE(conv)
