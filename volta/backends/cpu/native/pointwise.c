/* Pointwise activations, elementary functions and their backwards, float32 and float64 (Note
 * [native kernel contract] in common.h).
 *
 * Each kernel is one pass: an element function (`static inline`, no branches on data: the
 * ternaries below compile to vector blends) inlined into a range loop that GCC vectorises, run
 * over threads by volta_parallel. Every Python entry point takes its input arrays, then the
 * output array, then its float parameters, then the thread count:
 *     name(x, out, [params...,] threads)          unary
 *     name(grad, x, out, [params...,] threads)    backward (x: the input or the result)
 * Where an element's comparison decides between two formulas, NaN takes the side it takes in
 * PyTorch's CPU kernels (tests/backends/test_cpu_native_pointwise.py compares the edges).
 *
 * Each kernel's element expression is written once and compiled twice, for float (`name`) and
 * double (`name_f64`): the helpers it calls are type-generic macros (_Generic) that pick the
 * float32 approximation (volta_expf, the polynomials below) or C99 libm in double, which is
 * float64-accurate (tests/backends/test_cpu_native_pointwise_f64.py). float literals such as
 * 1.0f in an expression are exact in double. The libm calls do not vectorise; threads still split
 * the work.
 */
/* Multiply-adds contract to FMA instructions (GCC's ISO C mode, -std=c11, turns contraction
 * off): half the instructions of every polynomial, and each step rounds once instead of twice.
 * Infinities, NaN and signed zeros are unaffected. Before common.h, so that its expf/logf
 * contract here too. */
#pragma GCC optimize("fp-contract=fast")
#include "common.h"

/* ---- float32 helpers ---------------------------------------------------------------------- */

static inline float pw_sigmoid_f(float x) { return 1.0f / (1.0f + volta_expf(-x)); }

/* tanh(x), within about 2 ulp: x + x^3 P(x^2) for |x| <= 0.625 (P fitted in float64 by
 * reweighted least squares on tanh's relative error; 0.9 ulp evaluated in float32), and
 * 1 - 2 / (1 + e^{2|x|}) with x's sign above, where there is no cancellation (tanh >= 0.55).
 * e^{2|x|} overflowing to infinity gives exactly 1; NaN propagates through both. */
static inline float pw_tanhf(float x) {
    float u = x * x;
    float p = -0.005748169815089474f;
    p = p * u + 0.020679465999896486f;
    p = p * u - 0.05375282479532201f;
    p = p * u + 0.13331612078118887f;
    p = p * u - 0.3333328890731145f;
    float small = x * (1.0f + u * p); /* a product: tanh(-0.0) = -0.0 */
    float ax = fabsf(x);
    float large = 1.0f - 2.0f / (1.0f + volta_expf(ax + ax));
    large = copysignf(large, x);
    return ax <= 0.625f ? small : large;
}

/* e^y - 1, within about 2 ulp: y (1 + y Q(y)) with Q the Taylor series of (e^y - 1 - y) / y^2
 * to y^7 for |y| <= 0.5 (truncation below 2e-9 relative; the product form keeps -0.0), and
 * e^y - 1 beyond (e^y - 1 >= 0.39 in size there: no cancellation worth an ulp). */
static inline float pw_expm1_f(float y) {
    float q = 1.0f / 362880.0f;
    q = q * y + 1.0f / 40320.0f;
    q = q * y + 1.0f / 5040.0f;
    q = q * y + 1.0f / 720.0f;
    q = q * y + 1.0f / 120.0f;
    q = q * y + 1.0f / 24.0f;
    q = q * y + 1.0f / 6.0f;
    q = q * y + 0.5f;
    float small = y * (1.0f + y * q);
    float large = volta_expf(y) - 1.0f;
    return fabsf(y) <= 0.5f ? small : large;
}

/* log(u) for u in [1, 2] (or NaN, which the caller's correction term propagates): volta_logf's
 * polynomial (volta_log_reduced) without its edge cases. (volta_logf of 1 + volta_expf(...)
 * does not vectorise with GCC 12: its value-range folding leaves a statement with no vector
 * type.) */
static inline float pw_log_1_2(float u) {
    uint32_t bits = volta_float_to_bits(u);
    float e = (float)((int32_t)(bits >> 23) - 127);
    float m = volta_bits_to_float((bits & 0x007fffffu) | 0x3f800000u); /* [1, 2) */
    int high = m > 1.41421356237309505f;
    e = high ? e + 1.0f : e;
    m = high ? m * 0.5f : m;
    return volta_log_reduced(m - 1.0f, e); /* m - 1 in [sqrt(1/2) - 1, sqrt(2) - 1] */
}

/* log(1 + e^-|z|) + max(z, 0) = log(1 + e^z), to a few ulp: with e = e^-|z| in (0, 1] and
 * u = 1 + e, log1p(e) = log(u) - ((u - 1) - e) / u corrects the rounding of 1 + e (it gives e
 * itself where 1 + e rounds to 1). NaN propagates through e. */
static inline float pw_softplus(float z) {
    float e = volta_expf(-fabsf(z));
    float u = 1.0f + e;
    float log1p_e = pw_log_1_2(u) - ((u - 1.0f) - e) / u;
    return (z > 0.0f ? z : 0.0f) + log1p_e;
}

/* PyTorch's (x beta > threshold) ? x : log1p(e^{x beta}) / beta, both sides computed (a
 * select, which vectorises where the branch did not) */
static inline float pw_softplus_beta_f(float x, float beta, float threshold) {
    float z = x * beta;
    float soft = pw_softplus(z) / beta;
    return z > threshold ? x : soft;
}

/* e^t for t <= 0, t below -87 taken as -87 (e^-87 = 1.6e-38 where the true value is smaller:
 * callers multiply it by something small or add it to 1): volta_expf without its overflow and
 * subnormal handling, a third fewer instructions. NaN propagates. */
static inline float pw_exp_nonpositive(float t) {
    float n;
    float p = volta_exp_reduced(t < -87.0f ? -87.0f : t, &n);
    return p * volta_bits_to_float((uint32_t)((int32_t)n + 127) << 23);
}

/* gelu's normal distribution function: Phi(-|x|) = erfc(z) / 2 with z = |x| / sqrt 2 and
 * erfc(z) = P(t) e^{-z^2}, t = 1 / (1 + p z), P of degree 5 (Abramowitz and Stegun 7.1.26:
 * |error| <= 1.5e-7 in erf, shrinking with e^{-z^2} in the tails); one exponential and one
 * division where a 1-2 ulp erff costs twice that. gelu stays within 6e-7 absolute of float64
 * on [-12, 12] (tests/backends/test_cpu_fused_kernels.py). Sets *gauss = e^{-x^2 / 2} for the
 * derivative. */
static inline float pw_gelu_lower_tail(float x, float *gauss) {
    float z = fabsf(x) * 0.707106781186547524f;
    float t = 1.0f / (1.0f + 0.3275911f * z);
    float p = 1.061405429f;
    p = p * t - 1.453152027f;
    p = p * t + 1.421413741f;
    p = p * t - 0.284496736f;
    p = p * t + 0.254829592f;
    p = p * t;
    *gauss = pw_exp_nonpositive(-z * z);
    return 0.5f * p * *gauss;
}

#define PW_INV_SQRT_2PI 0.398942280401432678f

/* x Phi(x): x (1 - Phi(-x)) for x > 0, x Phi(-|x|) otherwise (-0.0 and NaN pass through; the
 * product with +-inf gives inf and NaN, as PyTorch's 0.5 x (1 + erf(x / sqrt 2)) at -inf) */
static inline float pw_gelu_f(float x) {
    float gauss;
    float tail = pw_gelu_lower_tail(x, &gauss);
    return x * (x > 0.0f ? 1.0f - tail : tail);
}

/* Phi(x) + x phi(x), phi(x) = e^{-x^2 / 2} / sqrt(2 pi); x phi(x) is +-0 in float32 beyond
 * |x| = 14 (where gauss holds e^-87 instead: see pw_exp_nonpositive), and NaN at +-inf as in
 * PyTorch (inf * 0) */
static inline float pw_gelu_slope_f(float x) {
    float gauss;
    float tail = pw_gelu_lower_tail(x, &gauss);
    float cdf = x > 0.0f ? 1.0f - tail : tail;
    float density = fabsf(x) < 14.0f ? x * (PW_INV_SQRT_2PI * gauss) : x * 0.0f;
    return cdf + density;
}

/* ---- float64 helpers (C99 libm in double) ------------------------------------------------ */

/* exp, erfc, tanh...: Note [float64 math through libmvec] in common.h */

static inline double pw_sigmoid_d(double x) { return 1.0 / (1.0 + exp(-x)); }

/* PyTorch's float64 formula, log1p(e^{x beta}) / beta below the threshold: e^{x beta}
 * overflows to infinity (and softplus with it) just where PyTorch's does */
static inline double pw_softplus_beta_d(double x, double beta, double threshold) {
    double z = x * beta;
    return z > threshold ? x : log1p(exp(z)) / beta;
}

/* PyTorch's float64 backward: g e^z / (e^z + 1) below the threshold (NaN where e^z overflows,
 * as there) */
static inline double pw_softplus_slope_d(double g, double x, double beta, double threshold) {
    double z = exp(x * beta);
    return x * beta > threshold ? g : g * z / (z + 1.0);
}

static inline float pw_softplus_slope_f(float g, float x, float beta, float threshold) {
    return x * beta > threshold ? g : g * pw_sigmoid_f(x * beta);
}

#define PW_SQRT1_2 0.707106781186547524400844362104849039
#define PW_INV_SQRT_2PI_D 0.398942280401432677939946059934381868

/* x Phi(x) = x erfc(-x / sqrt 2) / 2: erfc keeps the relative accuracy in the left tail where
 * PyTorch's 1 + erf(x / sqrt 2) cancels (the results differ there by less than 1e-16 absolute);
 * gelu(-inf) = -inf * 0 = NaN and gelu(-0.0) = -0.0 as in PyTorch */
static inline double pw_gelu_d(double x) { return 0.5 * x * erfc(-x * PW_SQRT1_2); }

/* Phi(x) + x phi(x); NaN at +-inf (inf * 0) as in PyTorch */
static inline double pw_gelu_slope_d(double x) {
    return 0.5 * erfc(-x * PW_SQRT1_2) + x * (PW_INV_SQRT_2PI_D * exp(-0.5 * x * x));
}

#define PW_SQRT_2_OVER_PI 0.797884560802865355879892119868763737
#define PW_GELU_KAPPA 0.044715

/* gelu's tanh form, stamped per type with its exponential: 0.5 x (1 + tanh(z)), z = sqrt(2/pi)
 * (x + kappa x^3), as x s with s = 1 / (1 + e^{-2z}) = (1 + tanh z) / 2: one exponential,
 * accurate where 1 + tanh z cancels, and -0.0 far left (x / infinity) as 0.5 x (1 - 1). Its
 * slope: (1 + tanh z) / 2 + x / 2 (1 - tanh^2 z) dz/dx = s + 2 x s (1 - s) dz/dx. */
#define PW_GELU_TANH(T, suffix, EXP)                                                         \
    static inline T pw_gelu_tanh_s_##suffix(T x, T x_sq) {                                   \
        T z = (T)PW_SQRT_2_OVER_PI * x * ((T)1 + (T)PW_GELU_KAPPA * x_sq);                   \
        return (T)1 / ((T)1 + EXP((T)-2 * z));                                               \
    }                                                                                        \
    static inline T pw_gelu_tanh_##suffix(T x) { return x * pw_gelu_tanh_s_##suffix(x, x * x); } \
    static inline T pw_gelu_tanh_slope_##suffix(T x) {                                       \
        T x_sq = x * x;                                                                      \
        T s = pw_gelu_tanh_s_##suffix(x, x_sq);                                              \
        T dz = (T)PW_SQRT_2_OVER_PI * ((T)1 + (T)3 * (T)PW_GELU_KAPPA * x_sq);               \
        return s + (T)2 * x * s * ((T)1 - s) * dz;                                           \
    }
PW_GELU_TANH(float, f, volta_expf)
PW_GELU_TANH(double, d, exp)

/* ---- type-generic helpers: the float32 approximation or libm in double --------------------- */

#define PW_GENERIC(x, f32, f64) _Generic((x), float: f32, double: f64)
#define pw_exp(x) PW_GENERIC(x, volta_expf, exp)(x)
#define pw_log(x) PW_GENERIC(x, volta_logf, log)(x)
#define pw_expm1(x) PW_GENERIC(x, pw_expm1_f, expm1)(x)
#define pw_tanh(x) PW_GENERIC(x, pw_tanhf, tanh)(x)
#define pw_sqrt(x) PW_GENERIC(x, sqrtf, sqrt)(x)
#define pw_fabs(x) PW_GENERIC(x, fabsf, fabs)(x)
#define pw_sigmoid(x) PW_GENERIC(x, pw_sigmoid_f, pw_sigmoid_d)(x)
#define pw_gelu(x) PW_GENERIC(x, pw_gelu_f, pw_gelu_d)(x)
#define pw_gelu_slope(x) PW_GENERIC(x, pw_gelu_slope_f, pw_gelu_slope_d)(x)
#define pw_gelu_tanh(x) PW_GENERIC(x, pw_gelu_tanh_f, pw_gelu_tanh_d)(x)
#define pw_gelu_tanh_slope(x) PW_GENERIC(x, pw_gelu_tanh_slope_f, pw_gelu_tanh_slope_d)(x)
#define pw_softplus_beta(x, beta, threshold) \
    PW_GENERIC(x, pw_softplus_beta_f, pw_softplus_beta_d)(x, beta, threshold)
#define pw_softplus_slope(g, x, beta, threshold) \
    PW_GENERIC(x, pw_softplus_slope_f, pw_softplus_slope_d)(g, x, beta, threshold)

/* ---- range loops -------------------------------------------------------------------------- */

typedef struct {
    const void *a; /* x, or the gradient of a backward */
    const void *b; /* a backward's input or result */
    int a_is_one;  /* a backward's gradient is one number, a[0], for every element */
    void *out;
    double p[3];   /* parameters, in the entry point's order (rounded to the element type) */
} pw_args;

/* A range loop NAME_range over T elements: out[i] = EXPR of x = a[i] (and p0..p2). */
#define PW_UNARY_OF(T, name, expr)                                                         \
    VOLTA_VECTOR static void name##_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {   \
        const pw_args *c = ctx;                                                            \
        const T *restrict xs = c->a;                                                       \
        T *restrict out = c->out;                                                          \
        const T p0 = (T)c->p[0], p1 = (T)c->p[1], p2 = (T)c->p[2];                         \
        (void)p0, (void)p1, (void)p2;                                                      \
        for (Py_ssize_t i = begin; i < end; i++) {                                         \
            const T x = xs[i];                                                             \
            out[i] = (expr);                                                               \
        }                                                                                  \
    }

/* A range loop NAME_range over T elements: out[i] = EXPR of g = a[i] (or a[0] for all, the
 * gradient of a sum: two loops, each vectorised), x = b[i] (and p0..p2). */
#define PW_BINARY_OF(T, name, expr)                                                        \
    VOLTA_VECTOR static void name##_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {   \
        const pw_args *c = ctx;                                                            \
        const T *restrict gs = c->a, *restrict xs = c->b;                                  \
        T *restrict out = c->out;                                                          \
        const T p0 = (T)c->p[0], p1 = (T)c->p[1], p2 = (T)c->p[2];                         \
        (void)p0, (void)p1, (void)p2;                                                      \
        if (c->a_is_one) {                                                                 \
            const T g = gs[0];                                                             \
            for (Py_ssize_t i = begin; i < end; i++) {                                     \
                const T x = xs[i];                                                         \
                out[i] = (expr);                                                           \
            }                                                                              \
            return;                                                                        \
        }                                                                                  \
        for (Py_ssize_t i = begin; i < end; i++) {                                         \
            const T g = gs[i], x = xs[i];                                                  \
            out[i] = (expr);                                                               \
        }                                                                                  \
    }

/* Both element types: name_range (float) and name_f64_range (double). */
#define PW_UNARY(name, expr) PW_UNARY_OF(float, name, expr) PW_UNARY_OF(double, name##_f64, expr)
#define PW_BINARY(name, expr) \
    PW_BINARY_OF(float, name, expr) PW_BINARY_OF(double, name##_f64, expr)

PW_UNARY(sigmoid, pw_sigmoid(x))
PW_BINARY(sigmoid_backward, g * x * (1.0f - x)) /* x: sigmoid's result */
PW_UNARY(silu, x / (1.0f + pw_exp(-x)))
PW_BINARY(silu_backward, g * pw_sigmoid(x) * (1.0f + x * (1.0f - pw_sigmoid(x))))
PW_UNARY(gelu, pw_gelu(x))
PW_BINARY(gelu_backward, g * pw_gelu_slope(x))
PW_UNARY(gelu_tanh, pw_gelu_tanh(x))
PW_BINARY(gelu_tanh_backward, g * pw_gelu_tanh_slope(x))
/* p0 beta, p1 threshold: PyTorch's (x beta > threshold) ? x : log1p(e^{x beta}) / beta */
PW_UNARY(softplus, pw_softplus_beta(x, p0, p1))
PW_BINARY(softplus_backward, pw_softplus_slope(g, x, p0, p1))
/* p0 alpha, p1 scale, p2 input_scale */
PW_UNARY(elu, x > 0.0f ? x * p1 : (p0 * p1) * pw_expm1(x * p2))
PW_BINARY(elu_backward, x > 0.0f ? g * p1 : g * (p2 * p0 * p1) * pw_exp(x * p2))
PW_BINARY(elu_backward_result, x > 0.0f ? g * p1 : g * p2 * (x + p0 * p1)) /* x: result */
/* p0 negative_slope */
PW_UNARY(leaky_relu, x > 0.0f ? x : x * p0)
PW_BINARY(leaky_relu_backward, x > 0.0f ? g : g * p0)
/* relu keeps -0.0 and NaN (x < 0 is false for both), as PyTorch's clamp_min(x, 0) */
PW_UNARY(relu, x < 0.0f ? 0.0f : x)
PW_BINARY(threshold_backward, x <= p0 ? 0.0f : g) /* p0 threshold */
PW_UNARY(tanh, pw_tanh(x))
PW_BINARY(tanh_backward, g * (1.0f - x * x)) /* x: tanh's result */
PW_UNARY(exp, pw_exp(x))
PW_UNARY(log, pw_log(x))
PW_UNARY(sqrt, pw_sqrt(x))
PW_UNARY(rsqrt, 1.0f / pw_sqrt(x))
PW_UNARY(abs, pw_fabs(x))
PW_UNARY(square, x * x)
/* PyTorch's (0 < x) - (x < 0): 0 for NaN and for both zeros */
PW_UNARY(sign, (float)(0.0f < x) - (float)(x < 0.0f))
/* p0 min, p1 max (-inf / inf where absent): NaN x stays NaN, min > max gives max, as
 * PyTorch's min(max(x, lo), hi); the caller sends NaN bounds to the numpy path */
PW_UNARY(clamp, (x < p0 ? p0 : x) > p1 ? p1 : (x < p0 ? p0 : x))

/* ---- entry points ------------------------------------------------------------------------- */

/* Elements per thread below which fewer threads are faster, measured (1 against 2 threads, on
 * 4K to 1M floats, grain 1024): a kernel that calls an exponential gains from 16K elements on
 * (16K sigmoid: 4 -> 3 us; 32K: 7 -> 4 us); a plain pass (relu, threshold_backward, a
 * product) runs at memory speed and gains from 64K (64K: 5 -> 3 us; 128K: 13 -> 5 us). The
 * float64 kernels use the same grains: libm in double is slower per element than the float32
 * approximations, and a plain pass moves twice the bytes per element. */
#define GRAIN_MATH 8192
#define GRAIN_PLAIN 32768

/* name(inputs..., out, params..., threads): checks the arrays (of `kind`, 'f' float32 or 'd'
 * float64, one size, except that a backward's gradient may be one element, used for all) and the
 * numbers, then runs fn over the elements with the GIL released. */
static PyObject *pw_call(const char *name, char kind, PyObject *const *args, Py_ssize_t nargs,
                         int inputs, int params, volta_range_fn fn, Py_ssize_t grain) {
    VOLTA_CHECK_NARGS(name, nargs, inputs + 1 + params + 1);
    pw_args ctx = {NULL, NULL, 0, NULL, {0.0, 0.0, 0.0}};
    for (int k = 0; k < params; k++) {
        double value = volta_arg_double(args[inputs + 1 + k]);
        if (value == -1.0 && PyErr_Occurred()) return NULL;
        ctx.p[k] = value;
    }
    int threads = (int)volta_arg_long(args[inputs + 1 + params]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    volta_array a[3];
    char got;
    if (volta_get_arrays(args, inputs + 1, inputs, a, &got) < 0) return NULL;
    Py_ssize_t size = a[inputs].size;
    ctx.a_is_one = inputs > 1 && a[0].size == 1;
    int same_size = ctx.a_is_one || a[0].size == size;
    for (int k = 1; k < inputs; k++) same_size &= a[k].size == size;
    if (got != kind || !same_size) {
        volta_release_arrays(a, inputs + 1);
        PyErr_Format(PyExc_ValueError, "%s: %s arrays of one size (or a one-element gradient)",
                     name, kind == 'f' ? "float32" : "float64");
        return NULL;
    }
    ctx.a = a[0].data;
    ctx.b = inputs > 1 ? a[1].data : NULL;
    ctx.out = a[inputs].data;
    Py_BEGIN_ALLOW_THREADS
    volta_parallel(size, grain, threads, fn, &ctx);
    Py_END_ALLOW_THREADS
    volta_release_arrays(a, inputs + 1);
    Py_RETURN_NONE;
}

#define PW_ENTRY_OF(name, kind, inputs, params, grain)                                     \
    static PyObject *py_##name(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {  \
        (void)self;                                                                        \
        return pw_call(#name, kind, args, nargs, inputs, params, name##_range, grain);     \
    }

/* py_name (float32) and py_name_f64 (float64) */
#define PW_ENTRY(name, inputs, params, grain)      \
    PW_ENTRY_OF(name, 'f', inputs, params, grain) \
    PW_ENTRY_OF(name##_f64, 'd', inputs, params, grain)

PW_ENTRY(sigmoid, 1, 0, GRAIN_MATH)
PW_ENTRY(sigmoid_backward, 2, 0, GRAIN_PLAIN)
PW_ENTRY(silu, 1, 0, GRAIN_MATH)
PW_ENTRY(silu_backward, 2, 0, GRAIN_MATH)
PW_ENTRY(gelu, 1, 0, GRAIN_MATH)
PW_ENTRY(gelu_backward, 2, 0, GRAIN_MATH)
PW_ENTRY(gelu_tanh, 1, 0, GRAIN_MATH)
PW_ENTRY(gelu_tanh_backward, 2, 0, GRAIN_MATH)
PW_ENTRY(softplus, 1, 2, GRAIN_MATH)
PW_ENTRY(softplus_backward, 2, 2, GRAIN_MATH)
PW_ENTRY(elu, 1, 3, GRAIN_MATH)
PW_ENTRY(elu_backward, 2, 3, GRAIN_MATH)
PW_ENTRY(elu_backward_result, 2, 3, GRAIN_PLAIN)
PW_ENTRY(leaky_relu, 1, 1, GRAIN_PLAIN)
PW_ENTRY(leaky_relu_backward, 2, 1, GRAIN_PLAIN)
PW_ENTRY(relu, 1, 0, GRAIN_PLAIN)
PW_ENTRY(threshold_backward, 2, 1, GRAIN_PLAIN)
PW_ENTRY(tanh, 1, 0, GRAIN_MATH)
PW_ENTRY(tanh_backward, 2, 0, GRAIN_PLAIN)
PW_ENTRY(exp, 1, 0, GRAIN_MATH)
PW_ENTRY(log, 1, 0, GRAIN_MATH)
PW_ENTRY(sqrt, 1, 0, GRAIN_MATH)
PW_ENTRY(rsqrt, 1, 0, GRAIN_MATH)
PW_ENTRY(abs, 1, 0, GRAIN_PLAIN)
PW_ENTRY(square, 1, 0, GRAIN_PLAIN)
PW_ENTRY(sign, 1, 0, GRAIN_PLAIN)
PW_ENTRY(clamp, 1, 2, GRAIN_PLAIN)

/* The float32 kernel `name` and its float64 twin `name_f64` (same arguments). */
#define PW_METHOD(name, doc) \
    VOLTA_METHOD_OF(#name, py_##name, doc), VOLTA_METHOD_OF(#name "_f64", py_##name##_f64, doc)

static PyMethodDef methods[] = {
    PW_METHOD(sigmoid, "sigmoid(x, out, threads): 1 / (1 + e^-x)"),
    PW_METHOD(sigmoid_backward, "sigmoid_backward(grad, result, out, threads)"),
    PW_METHOD(silu, "silu(x, out, threads): x / (1 + e^-x)"),
    PW_METHOD(silu_backward, "silu_backward(grad, x, out, threads)"),
    PW_METHOD(gelu, "gelu(x, out, threads): x Phi(x)"),
    PW_METHOD(gelu_backward, "gelu_backward(grad, x, out, threads)"),
    PW_METHOD(gelu_tanh, "gelu_tanh(x, out, threads): gelu, tanh approximation"),
    PW_METHOD(gelu_tanh_backward, "gelu_tanh_backward(grad, x, out, threads)"),
    PW_METHOD(softplus, "softplus(x, out, beta, threshold, threads)"),
    PW_METHOD(softplus_backward, "softplus_backward(grad, x, out, beta, threshold, threads)"),
    PW_METHOD(elu, "elu(x, out, alpha, scale, input_scale, threads)"),
    PW_METHOD(elu_backward, "elu_backward(grad, x, out, alpha, scale, input_scale, threads)"),
    PW_METHOD(elu_backward_result,
              "elu_backward_result(grad, result, out, alpha, scale, input_scale, threads)"),
    PW_METHOD(leaky_relu, "leaky_relu(x, out, negative_slope, threads)"),
    PW_METHOD(leaky_relu_backward, "leaky_relu_backward(grad, x, out, negative_slope, threads)"),
    PW_METHOD(relu, "relu(x, out, threads)"),
    PW_METHOD(threshold_backward, "threshold_backward(grad, x, out, threshold, threads)"),
    PW_METHOD(tanh, "tanh(x, out, threads)"),
    PW_METHOD(tanh_backward, "tanh_backward(grad, result, out, threads)"),
    PW_METHOD(exp, "exp(x, out, threads)"),
    PW_METHOD(log, "log(x, out, threads)"),
    PW_METHOD(sqrt, "sqrt(x, out, threads)"),
    PW_METHOD(rsqrt, "rsqrt(x, out, threads)"),
    PW_METHOD(abs, "abs(x, out, threads)"),
    PW_METHOD(square, "square(x, out, threads)"),
    PW_METHOD(sign, "sign(x, out, threads)"),
    PW_METHOD(clamp, "clamp(x, out, min, max, threads)"),
    {NULL, NULL, 0, NULL},
};

VOLTA_MODULE(pointwise)
