/* What every compiled CPU kernel module shares: reading numpy arrays through the buffer
 * protocol, splitting a loop over threads (OpenMP), and float32 exp/log that vectorise.
 *
 * Note [native kernel contract]
 * - A kernel module is one C file here, built as volta.backends.cpu.native._<file>; it takes
 *   C-contiguous arrays through the buffer protocol (numpy arrays, no numpy headers needed)
 *   and writes its results into arrays the caller allocated. The Python side checks dtypes,
 *   shapes and contiguity before it calls: a kernel trusts its arguments' layout, and checks
 *   only what it needs to stay memory-safe (sizes and item sizes).
 * - The last argument of every kernel is the thread count (volta.set_num_threads; 1 inside a
 *   Python parallel region). A loop is split over threads only where each thread's share pays
 *   for the handoff (a few microseconds with OpenMP, against 20-60 us for a Python worker).
 * - The GIL is released while a kernel computes.
 * - Results agree with PyTorch's within its float tolerances: no -ffast-math, so NaN, infinity
 *   and signed zeros propagate as IEEE says; transcendental functions are polynomial
 *   approximations of about 1-2 ulp (PyTorch's own vectorised CPU kernels are the same kind).
 */
#ifndef VOLTA_NATIVE_COMMON_H
#define VOLTA_NATIVE_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Hot loops are compiled three times, for AVX-512, AVX2+FMA and baseline x86-64; the loader picks
 * one for the CPU it runs on (GCC's function multiversioning). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define VOLTA_VECTOR __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define VOLTA_VECTOR
#endif

/* ---- arrays ------------------------------------------------------------------------------ */

typedef struct {
    Py_buffer view;
    void *data;
    Py_ssize_t size;     /* elements */
    Py_ssize_t itemsize; /* bytes per element */
} volta_array;

/* A C-contiguous buffer of `obj` (writable if asked). Returns 0, or -1 with a Python error set. */
static inline int volta_get_array(PyObject *obj, volta_array *a, int writable) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &a->view, flags) < 0) return -1;
    a->data = a->view.buf;
    a->itemsize = a->view.itemsize;
    a->size = a->view.itemsize ? a->view.len / a->view.itemsize : 0;
    return 0;
}

static inline void volta_release(volta_array *a) { PyBuffer_Release(&a->view); }

/* The buffer's element type as a numpy kind letter: 'f' float32, 'd' float64, 0 otherwise. */
static inline char volta_float_kind(const volta_array *a) {
    const char *fmt = a->view.format ? a->view.format : "B";
    char last = fmt[strlen(fmt) - 1];
    if (last == 'f' && a->itemsize == 4) return 'f';
    if (last == 'd' && a->itemsize == 8) return 'd';
    return 0;
}

/* Acquire `count` arrays from args[0..count) (the first `writable_from` read-only, the rest
 * writable), all of one float kind and `size` elements each unless size < 0. On failure releases
 * what it took and returns -1 with a ValueError/TypeError set. */
static inline int volta_get_arrays(PyObject *const *args, Py_ssize_t count, Py_ssize_t writable_from,
                                   volta_array *arrays, char *kind) {
    for (Py_ssize_t i = 0; i < count; i++) {
        if (volta_get_array(args[i], &arrays[i], i >= writable_from) < 0) {
            for (Py_ssize_t j = 0; j < i; j++) volta_release(&arrays[j]);
            return -1;
        }
    }
    char k = volta_float_kind(&arrays[0]);
    for (Py_ssize_t i = 1; i < count && k; i++)
        if (volta_float_kind(&arrays[i]) != k) k = 0;
    if (!k) {
        for (Py_ssize_t j = 0; j < count; j++) volta_release(&arrays[j]);
        PyErr_SetString(PyExc_TypeError, "native kernel: arrays must all be float32 or float64");
        return -1;
    }
    *kind = k;
    return 0;
}

static inline void volta_release_arrays(volta_array *arrays, Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < count; i++) volta_release(&arrays[i]);
}

/* args[i] as a C long / double, -1 on error (check PyErr_Occurred for long). */
static inline long volta_arg_long(PyObject *obj) { return PyLong_AsLong(obj); }
static inline double volta_arg_double(PyObject *obj) { return PyFloat_AsDouble(obj); }

/* The thread count (a kernel's last argument), at least 1. 0, or -1 with an error set. */
static inline int volta_arg_threads(PyObject *obj, int *threads) {
    long t = PyLong_AsLong(obj);
    if (t == -1 && PyErr_Occurred()) return -1;
    *threads = t < 1 ? 1 : t > INT_MAX ? INT_MAX : (int)t;
    return 0;
}

#define VOLTA_CHECK_NARGS(name, nargs, expected)                                           \
    do {                                                                                   \
        if ((nargs) != (expected)) {                                                       \
            PyErr_Format(PyExc_TypeError, "%s() takes %d arguments (%zd given)", (name),   \
                         (int)(expected), (Py_ssize_t)(nargs));                            \
            return NULL;                                                                   \
        }                                                                                  \
    } while (0)

/* ---- the module ------------------------------------------------------------------------- */

/* A module's method table entry: every kernel is a METH_FASTCALL function(self, args, nargs). */
#define VOLTA_METHOD_OF(name, function, doc) \
    {name, (PyCFunction)(void (*)(void))(function), METH_FASTCALL, doc}
#define VOLTA_METHOD(function, doc) VOLTA_METHOD_OF(#function, function, doc)

/* The kernel module volta.backends.cpu.native._<name> of the file's `methods` table. */
#define VOLTA_MODULE(name)                                                                   \
    static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_" #name, NULL, -1, methods}; \
    PyMODINIT_FUNC PyInit__##name(void) { return PyModule_Create(&module); }

/* ---- threads ----------------------------------------------------------------------------- */

/* This thread's number and its team's size inside a parallel region (0 and 1 without OpenMP),
 * for loops that cut their work themselves. */
static inline Py_ssize_t volta_thread_num(void) {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

static inline Py_ssize_t volta_num_threads(void) {
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

typedef void (*volta_range_fn)(void *ctx, Py_ssize_t begin, Py_ssize_t end);

/* Runs fn(ctx, begin, end) over [0, n) cut into at most `threads` contiguous ranges of at least
 * `grain` items each, range boundaries rounded down to multiples of `align` items (a power of
 * two). Call it with the GIL released. */
static inline void volta_parallel_aligned(Py_ssize_t n, Py_ssize_t grain, int threads,
                                          Py_ssize_t align, volta_range_fn fn, void *ctx) {
    if (grain < 1) grain = 1;
    Py_ssize_t parts = n / grain;
    if (parts > threads) parts = threads;
#ifdef _OPENMP
    if (parts > 1) {
#pragma omp parallel num_threads((int)parts)
        {
            Py_ssize_t k = volta_num_threads(), i = volta_thread_num();
            Py_ssize_t begin = (n * i / k) & ~(align - 1);
            Py_ssize_t end = i + 1 == k ? n : (n * (i + 1) / k) & ~(align - 1);
            if (end > begin) fn(ctx, begin, end);
        }
        return;
    }
#endif
    if (n > 0) fn(ctx, 0, n);
}

/* Elements: ranges start at multiples of 16, so vector loops stay aligned. */
static inline void volta_parallel(Py_ssize_t n, Py_ssize_t grain, int threads, volta_range_fn fn,
                                  void *ctx) {
    volta_parallel_aligned(n, grain, threads, 16, fn, ctx);
}

/* Whole items (rows, planes, tiles): no rounding. */
static inline void volta_parallel_items(Py_ssize_t n, Py_ssize_t grain, int threads,
                                        volta_range_fn fn, void *ctx) {
    volta_parallel_aligned(n, grain, threads, 1, fn, ctx);
}

/* ---- the arrays one call holds ------------------------------------------------------------- */

#define VOLTA_MAX_HELD 10

/* The buffers a kernel call has taken, released together whatever path the call leaves by. */
typedef struct {
    volta_array arrays[VOLTA_MAX_HELD];
    int count;
} volta_held;

static inline void volta_release_held(volta_held *held) {
    for (int i = 0; i < held->count; i++) volta_release(&held->arrays[i]);
    held->count = 0;
}

/* A C-contiguous buffer of `obj` of `size` elements of `itemsize` bytes whose format letter is
 * one of `formats` ("f" float32, "d" float64, "lq" int64); None gives NULL where `optional`.
 * The buffer joins `held`. 0, or -1 with an error set and every buffer of `held` released, so
 * that a chain of holds can fail with a plain `return NULL`. */
static inline int volta_hold(volta_held *held, PyObject *obj, int writable, Py_ssize_t size,
                             int optional, const char *formats, Py_ssize_t itemsize,
                             const char *what, void **ptr) {
    *ptr = NULL;
    if (optional && obj == Py_None) return 0;
    if (held->count == VOLTA_MAX_HELD) {
        volta_release_held(held);
        PyErr_SetString(PyExc_RuntimeError, "native kernel: too many arrays in one call");
        return -1;
    }
    volta_array *a = &held->arrays[held->count];
    if (volta_get_array(obj, a, writable) < 0) {
        volta_release_held(held);
        return -1;
    }
    held->count++;
    const char *fmt = a->view.format ? a->view.format : "B";
    char last = fmt[strlen(fmt) - 1];
    if (a->itemsize != itemsize || !strchr(formats, last) || a->size != size) {
        const char *type = formats[0] == 'f' ? "float32" : formats[0] == 'd' ? "float64" : "int64";
        PyErr_Format(PyExc_ValueError, "native kernel: %s must be a C-contiguous %s array of %zd "
                     "elements", what, type, size);
        volta_release_held(held);
        return -1;
    }
    *ptr = a->data;
    return 0;
}

static inline int volta_hold_f32(volta_held *held, PyObject *obj, int writable, Py_ssize_t size,
                                 int optional, const char *what, float **ptr) {
    return volta_hold(held, obj, writable, size, optional, "f", 4, what, (void **)ptr);
}

static inline int volta_hold_f64(volta_held *held, PyObject *obj, int writable, Py_ssize_t size,
                                 int optional, const char *what, double **ptr) {
    return volta_hold(held, obj, writable, size, optional, "d", 8, what, (void **)ptr);
}

/* The end of most kernel calls: fn over [0, n) split as volta_parallel does, with the GIL
 * released, then `held` released. Returns None. */
static inline PyObject *volta_run_held(volta_held *held, Py_ssize_t n, Py_ssize_t grain,
                                       int threads, volta_range_fn fn, void *ctx) {
    Py_BEGIN_ALLOW_THREADS
    volta_parallel(n, grain, threads, fn, ctx);
    Py_END_ALLOW_THREADS
    volta_release_held(held);
    Py_RETURN_NONE;
}

/* A non-negative size argument. 0, or -1 with an error set. */
static inline int volta_arg_size(PyObject *obj, Py_ssize_t *value) {
    *value = PyLong_AsSsize_t(obj);
    if (*value == -1 && PyErr_Occurred()) return -1;
    if (*value < 0) {
        PyErr_SetString(PyExc_ValueError, "native kernel: sizes must be non-negative");
        return -1;
    }
    return 0;
}

/* ---- float64 math ---------------------------------------------------------------------- */

/* Note [float64 math through libmvec]: float64 kernels take C99 libm in double, not the float32
 * polynomials. A scalar call per element (glibc's exp, about 3 ns) left float64 softmax at 3x
 * and gelu at 5x PyTorch's, which vectorise their own. glibc (2.35 on, for all six) ships
 * vector variants of these functions in libmvec, which libm.so pulls in as needed (setup.py
 * links libm), within libmvec's stated bound of 4 ulp and with IEEE special values: declared
 * `simd`, a loop over them vectorises in each VOLTA_VECTOR clone (_ZGVeN8v_exp for AVX-512,
 * _ZGVdN4v_exp for AVX2, ...), about ten times the scalar calls. The float64 tests hold the
 * results to 1e-12 of PyTorch's float64. Elsewhere the calls stay scalar libm. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#define VOLTA_LIBMVEC __attribute__((simd("notinbranch")))
VOLTA_LIBMVEC double exp(double);
VOLTA_LIBMVEC double expm1(double);
VOLTA_LIBMVEC double log(double);
VOLTA_LIBMVEC double log1p(double);
VOLTA_LIBMVEC double erfc(double);
VOLTA_LIBMVEC double tanh(double);
#endif

/* ---- float32 sums ------------------------------------------------------------------------- */

/* A helper of hot loops, inlined into each VOLTA_VECTOR clone so that its loops are compiled for
 * that clone's instruction set: GCC's stack-frame limit would otherwise keep a baseline copy
 * out of line for a helper with several simd reductions. */
#if defined(__GNUC__)
#define VOLTA_HOT_INLINE static inline __attribute__((always_inline))
#else
#define VOLTA_HOT_INLINE static inline
#endif

/* Note [sums in blocks]: a float32 sum is taken in float over blocks of VOLTA_SUM_BLOCK terms
 * (each vector lane adds a few) and the blocks' sums are added in double, so its rounding error
 * does not grow with the length (about as accurate as numpy's pairwise sum and PyTorch's
 * cascade sum) at the speed of a float loop. */
#define VOLTA_SUM_BLOCK 256

/* sum(x), Note [sums in blocks] */
VOLTA_HOT_INLINE double volta_block_sum(const float *x, Py_ssize_t n) {
    double total = 0.0;
    for (Py_ssize_t b = 0; b < n; b += VOLTA_SUM_BLOCK) {
        Py_ssize_t e = b + VOLTA_SUM_BLOCK < n ? b + VOLTA_SUM_BLOCK : n;
        float s = 0.0f;
#pragma omp simd reduction(+ : s)
        for (Py_ssize_t j = b; j < e; j++) s += x[j];
        total += s;
    }
    return total;
}

/* Stamps `name`: *sum = sum(gw) and *dot = sum(gw * (x - centre)) for gw = g * weight (g where
 * weight is NULL) over n elements of type T, Note [sums in blocks] (blocks summed in T, their
 * sums in double): the two sums a normalisation's backward takes of a row or plane. A macro so
 * that rowwise_typed.h stamps it per element type. */
#define VOLTA_BLOCK_GRAD_SUMS(name, T)                                                      \
    VOLTA_HOT_INLINE void name(const T *g, const T *weight, const T *x, T centre,           \
                               Py_ssize_t n, double *sum, double *dot) {                   \
        double total = 0.0, total_dot = 0.0;                                                \
        for (Py_ssize_t b = 0; b < n; b += VOLTA_SUM_BLOCK) {                               \
            Py_ssize_t e = b + VOLTA_SUM_BLOCK < n ? b + VOLTA_SUM_BLOCK : n;               \
            T s = (T)0, d = (T)0;                                                           \
            if (weight) {                                                                   \
                _Pragma("omp simd reduction(+ : s, d)")                                     \
                for (Py_ssize_t j = b; j < e; j++) {                                        \
                    T gw = g[j] * weight[j];                                                \
                    s += gw;                                                                \
                    d += gw * (x[j] - centre);                                              \
                }                                                                           \
            } else {                                                                        \
                _Pragma("omp simd reduction(+ : s, d)")                                     \
                for (Py_ssize_t j = b; j < e; j++) {                                        \
                    s += g[j];                                                              \
                    d += g[j] * (x[j] - centre);                                            \
                }                                                                           \
            }                                                                               \
            total += s;                                                                     \
            total_dot += d;                                                                 \
        }                                                                                   \
        *sum = total;                                                                       \
        *dot = total_dot;                                                                   \
    }

VOLTA_BLOCK_GRAD_SUMS(volta_block_grad_sums, float)

/* ---- float32 math that vectorises --------------------------------------------------------- */

static inline float volta_bits_to_float(uint32_t bits) {
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static inline uint32_t volta_float_to_bits(float f) {
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
}

/* e^x = 2^n e^r for r = x - n ln2 (ln2 in two parts), n = round(x / ln2) returned in *n, e^r by
 * Cephes' polynomial: the core of volta_expf, for callers that clamp x and apply 2^n their own
 * way. */
static inline float volta_exp_reduced(float x, float *n) {
    float k = floorf(x * 1.44269504088896341f + 0.5f);
    float r = x - k * 0.693359375f;
    r = r - k * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    *n = k;
    return p * r * r + r + 1.0f;
}

/* e^x, within 1-2 ulp over the whole float range: volta_exp_reduced, 2^n applied in two halves
 * so that results in the subnormal range round once and overflow gives infinity. NaN
 * propagates. */
static inline float volta_expf(float x) {
    float xc = x > 89.0f ? 89.0f : x; /* comparisons with NaN are false: NaN passes through */
    xc = xc < -104.0f ? -104.0f : xc;
    float n;
    float p = volta_exp_reduced(xc, &n);
    int32_t ni = (int32_t)n;
    int32_t half = ni / 2;
    float s1 = volta_bits_to_float((uint32_t)(half + 127) << 23);
    float s2 = volta_bits_to_float((uint32_t)(ni - half + 127) << 23);
    return p * s1 * s2;
}

/* log(2^e (1 + m)) for m in [sqrt(1/2) - 1, sqrt(2) - 1]: Cephes' polynomial in m, ln2 in two
 * parts. The core of volta_logf, for callers that reduce their argument themselves. */
static inline float volta_log_reduced(float m, float e) {
    float z = m * m;
    float y = 7.0376836292e-2f;
    y = y * m - 1.1514610310e-1f;
    y = y * m + 1.1676998740e-1f;
    y = y * m - 1.2420140846e-1f;
    y = y * m + 1.4249322787e-1f;
    y = y * m - 1.6668057665e-1f;
    y = y * m + 2.0000714765e-1f;
    y = y * m - 2.4999993993e-1f;
    y = y * m + 3.3333331174e-1f;
    y = y * m * z;
    y += -2.12194440e-4f * e;
    y += -0.5f * z;
    return m + y + 0.693359375f * e;
}

/* log(x), within 1-2 ulp: x = m 2^e with m in [sqrt(1/2), sqrt(2)), Cephes' polynomial in
 * m - 1. log(0) = -inf, log(negative) = NaN, log(inf) = inf, subnormals are scaled first. */
static inline float volta_logf(float x) {
    int subnormal = x < 1.17549435e-38f;
    float xs = subnormal ? x * 8388608.0f : x;
    uint32_t bits = volta_float_to_bits(xs);
    float e = (float)((int32_t)((bits >> 23) & 0xff) - 126) - (subnormal ? 23.0f : 0.0f);
    float m = volta_bits_to_float((bits & 0x007fffffu) | 0x3f000000u); /* [0.5, 1) */
    int low = m < 0.707106781186547524f;
    e = low ? e - 1.0f : e;
    m = low ? m + m - 1.0f : m - 1.0f;
    float result = volta_log_reduced(m, e);
    result = x == INFINITY ? INFINITY : result;
    result = x == 0.0f ? -INFINITY : result;
    result = (x < 0.0f || x != x) ? NAN : result;
    return result;
}

#endif /* VOLTA_NATIVE_COMMON_H */
