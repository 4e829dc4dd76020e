"""WGPU kernels of the special functions, the orthogonal polynomials and the pointwise ops whose
CPU kernels are written by hand in ``volta/backends/cpu/special_kernels.py`` (scipy there).

Each op is an expression over ``pw_*`` helpers run by the pointwise template
(:func:`pointwise.make_kernel`); the helpers below join those of ``pointwise.py`` for that
template. Everything computes in float32 (float16 loads and stores through float32, as the other
pointwise ops do); the semantics at nan, inf, poles and outside the domain follow the CPU
backend (scipy.special), so both backends give the same answers.

Methods (float32 everywhere; max errors against the CPU backend measured on lavapipe over wide
ranges are in the tests' tolerances; near a function's zeros the error is absolute):

* lgamma: Taylor series about 1 and 2 on [0.5, 2.5] (exact steps down from below 8), Stirling's
  series above, reflection below 1/2; digamma: recurrence to x >= 6 then the asymptotic
  series, reflection below 0; polygamma(n >= 1) is n! * zeta(n + 1, x);
* zeta: Euler-Maclaurin summation (direct terms up to q + 9, then Bernoulli corrections);
* igamma / igammac: power series below x = a + 1, Lentz's continued fraction above; the factor
  x^a e^-x / Gamma(a) is formed from log1p(t) - t for large a, and Q of a small a from the
  complement of the lower series (not 1 - P);
* J0, J1, Y0, Y1: Miller's backward recurrence below 8 (Y from Neumann series over the same
  J_k), Hankel's asymptotic expansion above;
* I0, I1: power series below 20, asymptotic expansion above; K0, K1 and Airy's Ai for x > 2:
  the trapezoidal rule on K_nu(x) = integral of exp(-x cosh t) cosh(nu t) dt, which converges
  geometrically; Ai: Maclaurin series on [-4.5, 2], asymptotic expansion below (its phase
  (2/3)|x|^1.5 carried in two floats);
* erfcx: series through erf below 1, Laplace's continued fraction above; ndtr, log_ndtr from
  it; ndtri: Giles' erfinv polynomial (an asymptotic start far in the tail) refined by Newton
  steps on log_ndtr;
* sin / cos (Bessel phases, sin(x)/x, Chebyshev's closed form): Cody-Waite reduction by pi/2,
  exact to |x| ~ 3e9, and Taylor polynomials, independent of the driver's sin accuracy.

Exact products use Dekker's splitting, not ``fma`` (which lavapipe does not fuse).
"""

from __future__ import annotations

from typing import Any

from volta import dtypes as D
from volta.backends.wgpu.kernels.copy import check_dtype
from volta.backends.wgpu.kernels.elementwise import Launch, load, store
from volta.backends.wgpu.kernels.pointwise import make_kernel
from volta.backends.wgpu.storage import empty
from volta.errors import DTypeError, SchemaError
from volta.tensor.checks import (
    check_float_operands,
    check_operands_same_dtype,
    reject_half,
    require_tensors,
)
from volta.tensor.tensor import Tensor

# -- float32 helpers ------------------------------------------------------------------------------

_F32: dict[str, str] = {
    "nan": "fn pw_nan() -> f32 { return bitcast<f32>(0x7fc00000u); }",
    # x less k pi/2 as (remainder, k mod 4), k the nearest integer to 2x/pi as float32 has it
    # (Cody and Waite's reduction). pi/2 is split in three parts, the first two of 12 bits, and
    # k in two of 12 bits, so every product but the last is exact and so is each subtraction:
    # accurate up to |x| ~ 3e9. No fma: it is not fused on every driver.
    "reduce_half_pi": """fn pw_reduce_half_pi(x: f32) -> vec2<f32> {
  let k = round(x * 0.63661977236758134);
  let e = i32((bitcast<u32>(k) >> 23u) & 0xffu) - 127;
  let m = max(4096.0, bitcast<f32>(u32(max(e + 116, 1)) << 23u));
  let low = k - m * trunc(k / m); let high = k - low;
  let r = ((((x - high * 1.57080078125) - low * 1.57080078125) - high * -4.453584551811218e-06)
    - low * -4.453584551811218e-06) - k * -8.705515752716053e-10;
  return vec2<f32>(r, k - 4.0 * floor(k * 0.25)); }""",
    # sin and cos of x + lo: two reductions (the first leaves a few units of k's last place
    # for large x), Taylor polynomials on [-pi/4, pi/4], then the quadrant; the driver's sin and
    # cos where the reduction fails (|x| > 3e9: only the magnitude is right there)
    "sincos_sum": """fn pw_sincos_sum(x: f32, lo: f32) -> vec2<f32> {
  if (pw_isnan(x) || pw_isinf(x)) { return vec2<f32>(x - x, x - x); }
  let first = pw_reduce_half_pi(x); let second = pw_reduce_half_pi(first.x + lo);
  let r = second.x; let r2 = r * r;
  if (abs(r) > 0.8) { return vec2<f32>(sin(x + lo), cos(x + lo)); }  // past |x| ~ 3e9
  let s = r + r * r2 * (-0.16666666666666667 + r2 * (0.0083333333333333333 + r2 * (
    -1.9841269841269841e-4 + r2 * (2.7557319223985891e-6 + r2 * -2.5052108385441719e-8))));
  let c = 1.0 + r2 * (-0.5 + r2 * (0.041666666666666667 + r2 * (-0.0013888888888888889 + r2 * (
    2.4801587301587302e-5 + r2 * (-2.7557319223985891e-7 + r2 * 2.0876756987868099e-9)))));
  let q = (first.y + second.y) % 4.0;
  if (q == 0.0) { return vec2<f32>(s, c); }
  if (q == 1.0) { return vec2<f32>(c, -s); }
  if (q == 2.0) { return vec2<f32>(-s, -c); }
  return vec2<f32>(-c, s); }""",
    "sincos": "fn pw_sincos(x: f32) -> vec2<f32> { return pw_sincos_sum(x, 0.0); }",
    # sin(pi x), exactly 0 at the integers (x less the nearest even number is exact)
    "sinpi": """fn pw_sinpi(x: f32) -> f32 {
  let y = x - 2.0 * round(0.5 * x);
  var a = abs(y);
  if (a > 0.5) { a = 1.0 - a; }
  let s = pw_sincos(3.14159265358979324 * a).x;
  return select(s, -s, y < 0.0); }""",
    # log(1 + x) to full relative precision: 2 atanh(x / (2 + x)) by its series near 0
    "log1p_series": """fn pw_log1p_series(x: f32) -> f32 {
  if (abs(x) > 0.4) { return pw_log1p(x); }
  let s = x / (2.0 + x); let s2 = s * s;
  return 2.0 * s * (1.0 + s2 * (0.33333333333333333 + s2 * (0.2 + s2 * (0.14285714285714286 +
    s2 * (0.11111111111111111 + s2 * (0.090909090909090909 + s2 * (0.076923076923076923 +
    s2 * 0.066666666666666667))))))); }""",
    # ln Gamma(1 + e) for |e| <= 1/2 by its Taylor series (coefficients -gamma, then
    # (-1)^k zeta(k) / k): full relative precision near the zeros of lgamma at 1 and 2
    "lgamma1p": """fn pw_lgamma1p(e: f32) -> f32 {
  var coefficient = array<f32, 27>(-0.5772156649015329, 0.8224670334241132,
    -0.40068563438653143, 0.27058080842778454,
    -0.20738555102867398, 0.1695571769974082, -0.1440498967688461, 0.12550966952474304,
    -0.11133426586956469, 0.1000994575127818, -0.09095401714582904, 0.083353840546109,
    -0.0769325164113522, 0.07143294629536133, -0.06666870588242046, 0.06250095514121304,
    -0.058823978658684585, 0.055555767627403614, -0.05263167937961666, 0.05000004769810169,
    -0.047619070330142226, 0.04545455629320467, -0.04347826605304026, 0.04166666915034121,
    -0.04000000119214014, 0.03846153903467518, -0.037037037312989324);
  var sum = 0.0;
  for (var k = 26; k >= 0; k--) { sum = sum * e + coefficient[k]; }
  return sum * e; }""",
    "lgamma_positive": """fn pw_lgamma_positive(x: f32) -> f32 {
  if (x <= 1.5) { return pw_lgamma1p(x - 1.0); }
  if (x < 8.0) {
    // down to (1.5, 2.5] (exact steps), where lgamma(z) = lgamma(1 + (z - 2)) + log(z - 1)
    var z = x; var product = 1.0;
    while (z > 2.5) { z = z - 1.0; product = product * z; }
    return pw_lgamma1p(z - 2.0) + pw_log1p_series(z - 2.0) + log(product);
  }
  var z = x; var product = 1.0;
  while (z < 8.0) { product = product * z; z = z + 1.0; }
  let w = 1.0 / (z * z);
  let series = (0.083333333333333333 + w * (-0.0027777777777777778 + w * (
    7.9365079365079365e-4 + w * -5.9523809523809524e-4))) / z;
  return (z - 0.5) * log(z) - z + 0.91893853320467274 + series - log(product); }""",
    "lgamma": """fn pw_lgamma(x: f32) -> f32 {
  if (pw_isnan(x)) { return x; }
  if (pw_isinf(x)) { return pw_inf(); }  // C's lgamma(-inf) is +inf
  if (x >= 0.5) { return pw_lgamma_positive(x); }
  let s = abs(pw_sinpi(x));
  if (s == 0.0) { return pw_inf(); }
  return 1.1447298858494002 - log(s) - pw_lgamma_positive(1.0 - x); }""",
    "digamma_positive": """fn pw_digamma_positive(x: f32) -> f32 {
  var z = x; var shift = 0.0;
  while (z < 6.0) { shift = shift + 1.0 / z; z = z + 1.0; }
  let w = 1.0 / (z * z);
  let tail = w * (0.083333333333333333 - w * (0.0083333333333333333 - w * (
    0.0039682539682539683 - w * 0.0041666666666666667)));
  return log(z) - 0.5 / z - tail - shift; }""",
    "digamma": """fn pw_digamma(x: f32) -> f32 {
  if (pw_isnan(x)) { return x; }
  if (x == 0.0) { return select(-pw_inf(), pw_inf(), pw_signbit(x)); }
  if (x > 0.0) { return pw_digamma_positive(x); }
  if (x == floor(x)) { return pw_nan(); }
  return pw_digamma_positive(1.0 - x) - 3.14159265358979324 * pw_sinpi(x + 0.5) / pw_sinpi(x);
  }""",
    # a^-s, where a < 0 only for an integer s
    "zeta_power": """fn pw_zeta_power(a: f32, s: f32) -> f32 {
  let r = pow(abs(a), -s);
  if (a < 0.0 && fract(s * 0.5) != 0.0) { return -r; }
  return r; }""",
    "zeta": """fn pw_zeta(s: f32, q: f32) -> f32 {
  if (pw_isnan(s) || pw_isnan(q)) { return pw_nan(); }
  if (s == 1.0) { return pw_inf(); }
  if (s < 1.0) { return pw_nan(); }
  if (q <= 0.0) {
    if (q == floor(q)) { return pw_inf(); }
    if (s != floor(s)) { return pw_nan(); }
  }
  if (q > 1e8) { return (1.0 / (s - 1.0) + 0.5 / q) * pow(q, 1.0 - s); }
  var sum = pw_zeta_power(q, s); var a = q; var b = 0.0; var i = 0;
  while (i < 9 || a <= 9.0) {
    i = i + 1; a = a + 1.0; b = pw_zeta_power(a, s); sum = sum + b;
    if (abs(b / sum) < 3e-8) { return sum; }
  }
  // (2j)! / B_2j
  var coefficient = array<f32, 12>(12.0, -720.0, 30240.0, -1209600.0, 47900160.0,
    -1.8924375803183791606e9, 7.47242496e10, -2.950130727918164224e12,
    1.1646782814350067249e14, -4.5979787224074726105e15, 1.8152105401943546773e17,
    -7.1661652561756670113e18);
  if (b == 0.0) { return sum; }  // the terms underflowed: so would the corrections
  sum = sum + b * a / (s - 1.0) - 0.5 * b;
  var rising = 1.0; var k = 0.0;
  for (var j = 0; j < 12; j++) {
    rising = rising * (s + k); b = b / a;
    let t = rising * b / coefficient[j];
    sum = sum + t;
    if (abs(t / sum) < 3e-8) { break; }
    k = k + 1.0; rising = rising * (s + k); b = b / a; k = k + 1.0;
  }
  return sum; }""",
    "polygamma": """fn pw_polygamma(n: i32, x: f32) -> f32 {
  if (n == 0) { return pw_digamma(x); }
  if (n == 1 && x < 0.5) {
    // reflection, as the CPU backend computes it: sin of the float32 product pi * x, so the
    // poles give pi^2 / sin^2 (huge, not inf)
    let s = pw_sincos(3.1415927 * x).x;
    return 9.8696044010893586 / (s * s) - pw_zeta(2.0, 1.0 - x);
  }
  var factorial = 1.0;
  for (var k = 2; k <= n; k++) { factorial = factorial * f32(k); }
  let value = factorial * pw_zeta(f32(n + 1), x);
  return select(-value, value, (n & 1) == 1); }""",
    # log(1 + t) - t without cancellation for small t
    "log1pmx": """fn pw_log1pmx(t: f32) -> f32 {
  if (abs(t) >= 0.5) { return pw_log1p_series(t) - t; }
  var power = t * t; var sum = 0.0;
  for (var k = 2; k < 60; k++) {
    let term = power / f32(k);
    sum = select(sum + term, sum - term, (k & 1) == 0);
    if (abs(term) < 1e-9 * abs(sum)) { break; }
    power = power * t;
  }
  return sum; }""",
    # x^a e^-x / Gamma(a); for large a through Stirling's formula and log1pmx
    "igamma_factor": """fn pw_igamma_factor(a: f32, x: f32) -> f32 {
  if (a < 10.0) { return exp(a * log(x) - x - pw_lgamma(a)); }
  let w = 1.0 / (a * a);
  let stirling_tail = (0.083333333333333333 + w * (-0.0027777777777777778 + w *
    7.9365079365079365e-4)) / a;
  return sqrt(a * 0.15915494309189534) * exp(a * pw_log1pmx((x - a) / a) - stirling_tail); }""",
    # (P, Q): the regularized lower and upper incomplete gamma functions
    "igamma_pair": """fn pw_igamma_pair(a: f32, x: f32) -> vec2<f32> {
  let nan = pw_nan();
  if (pw_isnan(a) || pw_isnan(x) || a < 0.0 || x < 0.0) { return vec2<f32>(nan, nan); }
  if (a == 0.0) { if (x > 0.0) { return vec2<f32>(1.0, 0.0); } return vec2<f32>(nan, nan); }
  if (x == 0.0) { return vec2<f32>(0.0, 1.0); }
  if (pw_isinf(a)) { if (pw_isinf(x)) { return vec2<f32>(nan, nan); }
    return vec2<f32>(0.0, 1.0); }
  if (pw_isinf(x)) { return vec2<f32>(1.0, 0.0); }
  let factor = pw_igamma_factor(a, x);
  if (x < a + 1.0) {
    var term = 1.0; var sum = 1.0;
    for (var n = 1; n < 4000; n++) {
      term = term * x / (a + f32(n)); sum = sum + term;
      if (term < sum * 3e-8) { break; }
    }
    let p = factor * sum / a;
    if (a > 0.5 || p < 0.5) { return vec2<f32>(p, 1.0 - p); }
    // small a, Q small: Q = -expm1(a log x - lgamma(1 + a)) - x^a / Gamma(a) times the sum
    // of (-x)^n / (n! (a + n)), n >= 1 (from the series of the lower incomplete gamma)
    let log_power = a * log(x) - pw_lgamma1p(a);
    var term_n = 1.0; var tail = 0.0;
    for (var n = 1; n < 60; n++) {
      term_n = -term_n * x / f32(n); let t = term_n / (a + f32(n)); tail = tail + t;
      if (abs(t) < 1e-9 * abs(tail)) { break; }
    }
    let q = -pw_expm1(log_power) - a * exp(log_power) * tail;
    return vec2<f32>(1.0 - q, q);
  }
  let tiny = 1e-30;
  var b = x + 1.0 - a; var c = 1.0 / tiny; var d = 1.0 / b; var h = d;
  for (var i = 1; i < 4000; i++) {
    let an = -f32(i) * (f32(i) - a);
    b = b + 2.0;
    d = an * d + b; if (abs(d) < tiny) { d = tiny; }
    c = b + an / c; if (abs(c) < tiny) { c = tiny; }
    d = 1.0 / d;
    let step = d * c; h = h * step;
    if (abs(step - 1.0) < 3e-8) { break; }
  }
  let q = factor * h;
  return vec2<f32>(1.0 - q, q); }""",
    # (J0, J1, Y0, Y1) for 0 < x < 8
    "bessel_small": """fn pw_bessel_small(x: f32) -> vec4<f32> {
  let log_term = log(0.5 * x) + 0.57721566490153286;
  if (x < 1e-3) {
    let j0 = 1.0 - 0.25 * x * x; let j1 = 0.5 * x * (1.0 - 0.125 * x * x);
    return vec4<f32>(j0, j1, 0.63661977236758134 * (log_term * j0 + 0.25 * x * x),
                     -0.63661977236758134 / x + 0.31830988618379067 * x * (log_term - 0.5));
  }
  // Miller: J_k from k = top down, scaled by an unknown factor that J0 + 2 (J2 + J4 + ...)
  // = 1 fixes; the Neumann sums of Y0 and Y1 accumulate on the way
  let top = 2 * i32(0.5 * x) + 20;
  var next = 0.0; var current = 1e-20;
  var norm = 0.0; var sum_y0 = 0.0; var sum_y1 = 0.0;
  for (var k = top; k > 0; k--) {
    if ((k & 1) == 0) {
      let m = k / 2; let signed = select(current, -current, (m & 1) == 1);
      norm = norm + 2.0 * current; sum_y0 = sum_y0 + signed / f32(m);
    } else {
      let m = (k + 1) / 2;
      sum_y1 = sum_y1 + select(current, -current, (m & 1) == 1) / f32(m);
      if (k >= 3) { sum_y1 = sum_y1 - select(current, -current, ((m - 1) & 1) == 1) / f32(m - 1); }
    }
    let previous = (2.0 * f32(k) / x) * current - next;
    next = current; current = previous;
    if (abs(current) > 1e20) {
      current = current * 1e-20; next = next * 1e-20; norm = norm * 1e-20;
      sum_y0 = sum_y0 * 1e-20; sum_y1 = sum_y1 * 1e-20;
    }
  }
  norm = norm + current;
  let j0 = current / norm; let j1 = next / norm;
  let y0 = 0.63661977236758134 * log_term * j0 - 1.2732395447351627 * sum_y0 / norm;
  let y1 = 0.63661977236758134 * (log_term * j1 - j0 / x + sum_y1 / norm);
  return vec4<f32>(j0, j1, y0, y1); }""",
    # Hankel's expansion (P, Q) of order nu (mu = 4 nu^2), summed to its smallest term
    "bessel_pq": """fn pw_bessel_pq(x: f32, mu: f32) -> vec2<f32> {
  var term = 1.0; var p = 1.0; var q = 0.0;
  for (var k = 1; k < 40; k++) {
    let odd = f32(2 * k - 1);
    let next = term * (mu - odd * odd) / (f32(k) * 8.0 * x);
    if (abs(next) >= abs(term)) { break; }
    term = next;
    let signed = select(term, -term, ((k / 2) & 1) == 1);
    if ((k & 1) == 1) { q = q + signed; } else { p = p + signed; }
  }
  return vec2<f32>(p, q); }""",
    # (J_nu, Y_nu) for x >= 8, nu = 0 or 1
    "bessel_large": """fn pw_bessel_large(x: f32, nu: i32) -> vec2<f32> {
  let pq = pw_bessel_pq(x, f32(4 * nu * nu));
  let sc = pw_sincos(x);
  // cos and sin of x - pi/4 - nu pi/2
  var c = (sc.y + sc.x) * 0.70710678118654752; var s = (sc.x - sc.y) * 0.70710678118654752;
  if (nu == 1) { let t = c; c = s; s = -t; }
  let amplitude = sqrt(0.63661977236758134 / x);
  return amplitude * vec2<f32>(pq.x * c - pq.y * s, pq.x * s + pq.y * c); }""",
    "bessel_jy": """fn pw_bessel_jy(x: f32) -> vec4<f32> {
  if (x < 8.0) { return pw_bessel_small(x); }
  let zero = pw_bessel_large(x, 0); let one = pw_bessel_large(x, 1);
  return vec4<f32>(zero.x, one.x, zero.y, one.y); }""",
    "bessel_j0": """fn pw_bessel_j0(x: f32) -> f32 {
  let a = abs(x);
  if (pw_isnan(x)) { return x; }
  if (pw_isinf(x)) { return pw_nan(); }
  if (a == 0.0) { return 1.0; }
  return pw_bessel_jy(a).x; }""",
    "bessel_j1": """fn pw_bessel_j1(x: f32) -> f32 {
  let a = abs(x);
  if (pw_isnan(x)) { return x; }
  if (pw_isinf(x)) { return pw_nan(); }
  if (a == 0.0) { return x; }
  let j = pw_bessel_jy(a).y;
  return select(j, -j, x < 0.0); }""",
    "bessel_y": """fn pw_bessel_y(x: f32, nu: i32) -> f32 {
  if (pw_isnan(x) || x < 0.0 || pw_isinf(x)) { return pw_nan(); }
  if (x == 0.0) { return -pw_inf(); }
  let v = pw_bessel_jy(x);
  return select(v.z, v.w, nu == 1); }""",
    # (I0, I1) times exp(-|x|), of |x|
    "bessel_i_scaled": """fn pw_bessel_i_scaled(a: f32) -> vec2<f32> {
  if (a < 20.0) {
    let y = 0.25 * a * a; var t0 = 1.0; var s0 = 1.0; var t1 = 1.0; var s1 = 1.0;
    for (var k = 1; k < 100; k++) {
      let kf = f32(k);
      t0 = t0 * y / (kf * kf); s0 = s0 + t0;
      t1 = t1 * y / (kf * (kf + 1.0)); s1 = s1 + t1;
      if (t0 < 1e-9 * s0 && t1 < 1e-9 * s1) { break; }
    }
    let e = exp(-a);
    return vec2<f32>(s0 * e, 0.5 * a * s1 * e);
  }
  // asymptotic: (1 / sqrt(2 pi x)) sum of (-1)^k a_k(nu) / x^k
  var t0 = 1.0; var s0 = 1.0; var t1 = 1.0; var s1 = 1.0;
  for (var k = 1; k < 40; k++) {
    let odd = f32(2 * k - 1); let step = 1.0 / (f32(k) * 8.0 * a);
    t0 = -t0 * (0.0 - odd * odd) * step; t1 = -t1 * (4.0 - odd * odd) * step;
    s0 = s0 + t0; s1 = s1 + t1;
    if (abs(t0) < 1e-9 && abs(t1) < 1e-9) { break; }
  }
  let scale = 1.0 / sqrt(6.2831853071795865 * a);
  return vec2<f32>(s0 * scale, s1 * scale); }""",
    "bessel_i": """fn pw_bessel_i(x: f32, nu: i32, scaled: bool) -> f32 {
  if (pw_isnan(x)) { return x; }
  let a = abs(x);
  var v = 0.0;
  if (pw_isinf(x)) {
    if (!scaled) { return pw_nan(); }
  } else {
    let pair = pw_bessel_i_scaled(a);
    v = select(pair.x, pair.y, nu == 1);
    if (!scaled) { v = v * exp(a); }
  }
  return select(v, -v, nu == 1 && x < 0.0); }""",
    # exp(x) K_nu(x), x > 0: the trapezoidal rule on the integral of
    # exp(-x (cosh t - 1)) cosh(nu t), cosh t - 1 = expm1(t)^2 / (2 exp(t))
    "bessel_k_scaled": """fn pw_bessel_k_scaled(x: f32, nu: f32) -> f32 {
  let h = min(0.3, 0.6 / sqrt(x));
  var sum = 0.5;
  for (var k = 1; k < 400; k++) {
    let t = f32(k) * h; let em = pw_expm1(t);
    var cosh_minus_one = 0.5 * em - 0.5 + 0.5 / (em + 1.0);
    if (t < 1.0) { cosh_minus_one = em * (em / (2.0 * (em + 1.0))); }
    let f = exp(-x * cosh_minus_one) * cosh(nu * t);
    sum = sum + f;
    if (f < 1e-9 * sum) { break; }
  }
  return sum * h; }""",
    "bessel_k": """fn pw_bessel_k(x: f32, nu: f32, scaled: bool) -> f32 {
  if (pw_isnan(x) || x < 0.0) { return pw_nan(); }
  if (x == 0.0) { return pw_inf(); }
  if (pw_isinf(x)) { return 0.0; }
  let v = pw_bessel_k_scaled(x, nu);
  if (scaled) { return v; }
  return v * exp(-x); }""",
    "airy_ai": """fn pw_airy_ai(x: f32) -> f32 {
  // scipy's Ai is nan from |x| = 2^20 on
  if (pw_isnan(x) || abs(x) >= 1048576.0) { return pw_nan(); }
  if (x > 2.0) {
    let zeta = 0.66666666666666667 * x * sqrt(x);
    return 0.31830988618379067 * sqrt(x * 0.33333333333333333) * exp(-zeta) *
      pw_bessel_k_scaled(zeta, 0.33333333333333333);
  }
  if (x >= -4.5) {
    let x3 = x * x * x; var tf = 1.0; var tg = x; var f = 1.0; var g = x;
    for (var k = 1; k < 40; k++) {
      let k3 = f32(3 * k);
      tf = tf * x3 / (k3 * (k3 - 1.0)); tg = tg * x3 / ((k3 + 1.0) * k3);
      f = f + tf; g = g + tg;
      if (abs(tf) < 1e-9 * abs(f) && abs(tg) < 1e-9 * abs(g)) { break; }
    }
    return 0.35502805388781723926 * f - 0.25881940379280679840 * g;
  }
  let z = -x; let phase = pw_airy_phase(z); let zeta = phase.x;
  var u = 1.0; var term = 1.0; var p = 1.0; var q = 0.0;
  for (var k = 1; k < 40; k++) {
    let kf = f32(k);
    u = u * (6.0 * kf - 5.0) * (6.0 * kf - 3.0) * (6.0 * kf - 1.0) /
      ((2.0 * kf - 1.0) * 216.0 * kf);
    let next = u / pow(zeta, kf);
    if (next >= abs(term)) { break; }
    term = next;
    let signed = select(term, -term, ((k / 2) & 1) == 1);
    if ((k & 1) == 1) { q = q + signed; } else { p = p + signed; }
  }
  let sc = pw_sincos_sum(zeta, phase.y);
  // sin and cos of zeta + pi/4
  let s = (sc.x + sc.y) * 0.70710678118654752; let c = (sc.y - sc.x) * 0.70710678118654752;
  return (s * p - c * q) * 0.56418958354775629 / sqrt(sqrt(z)); }""",
    # (hi, lo) with a * b = hi + lo exactly: Dekker's product on Veltkamp's 12-bit halves
    # (no fma: it is not fused on every driver)
    "two_product": """fn pw_two_product(a: f32, b: f32) -> vec2<f32> {
  let p = a * b;
  if (!(abs(p) < 1e30)) { return vec2<f32>(p, 0.0); }  // (and no overflow in the halves)
  let ca = 4097.0 * a; let a_hi = ca - (ca - a); let a_lo = a - a_hi;
  let cb = 4097.0 * b; let b_hi = cb - (cb - b); let b_lo = b - b_hi;
  return vec2<f32>(p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo); }""",
    # Ai's phase (2/3) z^1.5 in two parts: float32 alone loses the phase for large z
    "airy_phase": """fn pw_airy_phase(z: f32) -> vec2<f32> {
  let s = sqrt(z); let square = pw_two_product(s, s);
  let s_lo = ((z - square.x) - square.y) / (s + s);
  let t = pw_two_product(z, s); let t_lo = t.y + z * s_lo;
  let zeta = pw_two_product(t.x, 0.6666667);
  return vec2<f32>(zeta.x, zeta.y + t.x * -1.9868215e-8 + t_lo * 0.6666667); }""",
    "erfcx_positive": """fn pw_erfcx_positive(x: f32) -> f32 {
  if (x < 1.0) {
    // erf(x) = (2 / sqrt(pi)) exp(-x^2) sum of 2^n x^(2n+1) / (1 3 5 ... (2n+1)): no cancellation
    let x2 = x * x; var term = x; var sum = x;
    for (var n = 1; n < 40; n++) {
      term = term * 2.0 * x2 / f32(2 * n + 1); sum = sum + term;
      if (term < 1e-9 * sum) { break; }
    }
    return exp(x2) - 1.1283791670955126 * sum;
  }
  var f = x;
  for (var k = 60; k > 0; k--) { f = x + 0.5 * f32(k) / f; }
  return 0.56418958354775629 / f; }""",
    "erfcx": """fn pw_erfcx(x: f32) -> f32 {
  if (pw_isnan(x)) { return x; }
  if (x >= 0.0) { return pw_erfcx_positive(x); }
  return 2.0 * exp(x * x) - pw_erfcx_positive(-x); }""",
    # exp(-z^2) with z^2 carried in two parts (so large z keep their relative accuracy)
    "exp_minus_square": """fn pw_exp_minus_square(z: f32) -> f32 {
  let square = pw_two_product(z, z);
  return exp(-square.x) * (1.0 - square.y); }""",
    # erfc(-x / sqrt(2)) / 2 for x <= 0, i.e. ndtr of a non-positive x
    "ndtr_lower": """fn pw_ndtr_lower(x: f32) -> f32 {
  let z = -x * 0.70710678118654752;
  return 0.5 * pw_erfcx_positive(z) * pw_exp_minus_square(z); }""",
    "ndtr": """fn pw_ndtr(x: f32) -> f32 {
  if (pw_isnan(x)) { return x; }
  if (x <= 0.0) { return pw_ndtr_lower(x); }
  return 1.0 - pw_ndtr_lower(-x); }""",
    "log_ndtr": """fn pw_log_ndtr(x: f32) -> f32 {
  if (pw_isnan(x)) { return x; }
  if (x > 0.0) { return pw_log1p_series(-pw_ndtr_lower(-x)); }
  if (x > -1.0) { return log(pw_ndtr_lower(x)); }
  let z = -x * 0.70710678118654752; let square = pw_two_product(z, z);
  return log(0.5 * pw_erfcx_positive(z)) - square.x - square.y; }""",
    "ndtri": """fn pw_ndtri(p: f32) -> f32 {
  if (pw_isnan(p) || p < 0.0 || p > 1.0) { return pw_nan(); }
  if (p == 0.0) { return -pw_inf(); }
  if (p == 1.0) { return pw_inf(); }
  let q = min(p, 1.0 - p);
  // Giles' erfinv polynomial in w = -log(1 - y^2), y = 1 - 2q (from q without rounding)
  var w = -log(4.0 * q * (1.0 - q)); var e: f32;
  if (w < 5.0) { w = w - 2.5; e = 2.81022636e-08; e = 3.43273939e-07 + e * w;
    e = -3.5233877e-06 + e * w; e = -4.39150654e-06 + e * w; e = 0.00021858087 + e * w;
    e = -0.00125372503 + e * w; e = -0.00417768164 + e * w; e = 0.246640727 + e * w;
    e = 1.50140941 + e * w;
  } else { w = sqrt(w) - 3.0; e = -0.000200214257; e = 0.000100950558 + e * w;
    e = 0.00134934322 + e * w; e = -0.00367342844 + e * w; e = 0.00573950773 + e * w;
    e = -0.0076224613 + e * w; e = 0.00943887047 + e * w; e = 1.00167406 + e * w;
    e = 2.83297682 + e * w; }
  var x = -1.4142135623730950 * e * (1.0 - 2.0 * q);
  if (q < 1e-6) {
    // far in the tail, where the polynomial was not fitted: x^2 = -2 log q - log(-2 log q)
    // - log(2 pi) from q ~ pdf(x) / |x|
    let l = -2.0 * log(q); x = -sqrt(l - log(l) - 1.8378770664093455);
  }
  // Newton on log(ndtr(x)) = log(q); ndtr(x) / pdf(x) = sqrt(pi / 2) erfcx(-x / sqrt(2))
  let goal = log(q);
  for (var i = 0; i < 3; i++) {
    if (x >= 0.0) { break; }
    x = x - (pw_log_ndtr(x) - goal) * 1.2533141373155003 *
      pw_erfcx_positive(-x * 0.70710678118654752);
  }
  return select(x, -x, p > 0.5); }""",
    "entr": """fn pw_entr(x: f32) -> f32 {
  if (pw_isnan(x)) { return x; }
  if (x > 0.0) { return -x * select(log(x), pw_log1p_series(x - 1.0), abs(x - 1.0) < 0.4); }
  if (x == 0.0) { return 0.0; }
  return -pw_inf(); }""",
    "xlog1py": """fn pw_xlog1py(x: f32, y: f32) -> f32 {
  if (pw_isnan(x) || pw_isnan(y)) { return pw_nan(); }
  if (x == 0.0) { return 0.0; }
  if (y < -1.0) { return pw_nan(); }
  return x * pw_log1p_series(y); }""",
    "spherical_bessel_j0": """fn pw_spherical_bessel_j0(x: f32) -> f32 {
  if (pw_isnan(x)) { return x; }
  if (pw_isinf(x)) { return 0.0; }
  if (x == 0.0) { return 1.0; }
  return pw_sincos(x).x / x; }""",
    "acosh": """fn pw_acosh(x: f32) -> f32 {
  if (pw_isnan(x) || x < 1.0) { return pw_nan(); }
  if (x > 1e18) { return log(x) + 0.69314718055994531; }
  let t = x - 1.0;
  return pw_log1p_series(t + sqrt(t * (t + 2.0))); }""",
    "asinh": """fn pw_asinh(x: f32) -> f32 {
  if (pw_isnan(x) || pw_isinf(x)) { return x; }
  let a = abs(x); var r: f32;
  if (a > 1e18) { r = log(a) + 0.69314718055994531; }
  else { r = pw_log1p_series(a + a * a / (1.0 + sqrt(1.0 + a * a))); }
  return select(r, -r, pw_signbit(x)); }""",
    "atanh": """fn pw_atanh(x: f32) -> f32 {
  let a = abs(x);
  if (pw_isnan(x) || a > 1.0) { return pw_nan(); }
  if (a == 1.0) { return x * pw_inf(); }
  let r = 0.5 * pw_log1p_series((a + a) / (1.0 - a));
  return select(r, -r, pw_signbit(x)); }""",
    "heaviside": """fn pw_heaviside(x: f32, v: f32) -> f32 {
  if (x == 0.0) { return v; } return select(0.0, 1.0, x > 0.0); }""",
    # a float32's place in the order of all floats, as an integer (-0 and +0 share 0)
    "float_order": """fn pw_float_order(x: f32) -> i32 {
  let u = bitcast<u32>(x); let m = i32(u & 0x7fffffffu);
  return select(m, -m, (u >> 31u) == 1u); }""",
    # on the bits, so subnormals survive drivers that flush them in arithmetic
    "nextafter": """fn pw_nextafter(a: f32, b: f32) -> f32 {
  if (pw_isnan(a) || pw_isnan(b)) { return pw_nan(); }
  let ka = pw_float_order(a); let kb = pw_float_order(b);
  if (ka == kb) { return b; }
  let k = select(ka - 1, ka + 1, ka < kb);
  if (k == 0) { return bitcast<f32>(bitcast<u32>(a) & 0x80000000u); }
  return bitcast<f32>(select(u32(k), u32(-k) | 0x80000000u, k < 0)); }""",
}

# -- orthogonal polynomials, as the CPU backend evaluates them ------------------------------------
# The three-term recurrence (stopped once nan, which it would stay); Chebyshev inside (-1, 1)
# for n > 6 by its trigonometric closed form, the endpoints exactly. A negative or non-finite
# n gives 0.

_F32["polynomial_degree"] = """fn pw_polynomial_degree(n: f32) -> i32 {
  if (pw_isnan(n) || pw_isinf(n) || n < 0.0) { return -1; }
  return i32(trunc(n)); }"""
# sin and cos of n theta, the product carried in two parts
_F32["sincos_product"] = """fn pw_sincos_product(n: f32, theta: f32) -> vec2<f32> {
  let product = pw_two_product(n, theta);
  return pw_sincos_sum(product.x, product.y); }"""
_F32["chebyshev"] = """fn pw_chebyshev(t: f32, degree: f32, kind: i32) -> f32 {
  let n = pw_polynomial_degree(degree);
  if (n < 0) { return 0.0; }
  if (n == 0) { return 1.0; }
  let nf = f32(n); let odd = (n & 1) == 1;
  if (t == 1.0) {
    if (kind == 1) { return nf + 1.0; } if (kind == 3) { return nf + nf + 1.0; } return 1.0; }
  if (t == -1.0) {
    var v = 1.0;
    if (kind == 1) { v = nf + 1.0; } else if (kind == 2) { v = nf + nf + 1.0; }
    return select(v, -v, odd); }
  if (abs(t) < 1.0 && n > 6) {
    // acos(t) to float32's last place (as numpy has it): a Newton step on the driver's
    var theta = pw_acos(t);
    let sc_theta = pw_sincos(theta);
    theta = theta + (sc_theta.y - t) / sc_theta.x;
    var closed: f32;
    if (kind == 0) { closed = pw_sincos_product(nf, theta).y; }
    else if (kind == 1) { closed = pw_sincos_product(nf + 1.0, theta).x / pw_sincos(theta).x; }
    else if (kind == 2) {
      closed = pw_sincos_product(nf + 0.5, theta).y / pw_sincos(0.5 * theta).y; }
    else { closed = pw_sincos_product(nf + 0.5, theta).x / pw_sincos(0.5 * theta).x; }
    if (!pw_isnan(closed) && !pw_isinf(closed)) { return closed; }
  }
  var p = 1.0; var q = t;
  if (kind == 1) { q = t + t; } else if (kind == 2) { q = t + t - 1.0; }
  else if (kind == 3) { q = t + t + 1.0; }
  for (var k = 1; k < n; k++) {
    let r = (t + t) * q - p; p = q; q = r;
    if (pw_isnan(q)) { break; }
  }
  return q; }"""
_F32["orthogonal"] = """fn pw_orthogonal(x: f32, degree: f32, family: i32) -> f32 {
  let n = pw_polynomial_degree(degree);
  if (n < 0) { return 0.0; }
  var p = 1.0; var q = x;
  if (family == 0) { q = x + x; } else if (family == 2) { q = 1.0 - x; }
  if (n == 0) { return p; }
  for (var k = 1; k < n; k++) {
    let kf = f32(k); var r: f32;
    // the Hermite steps round once where the driver fuses fma, like PyTorch's
    if (family == 0) { r = fma(x + x, q, -(f32(2 * k) * p)); }
    else if (family == 1) { r = fma(x, q, -(kf * p)); }
    else if (family == 2) { r = ((f32(2 * k + 1) - x) * q - kf * p) / (kf + 1.0); }
    else { r = (f32(2 * k + 1) * x * q - kf * p) / (kf + 1.0); }
    p = q; q = r;
    if (pw_isnan(q)) { break; }
  }
  return q; }"""

# -- integer helpers (int32, and bool as 0/1) ----------------------------------------------------

_I32: dict[str, str] = {
    "gcd": """fn pw_gcd(a: i32, b: i32) -> i32 {
  var x = abs(a); var y = abs(b);
  loop { if (y == 0) { break; } let t = x % y; x = y; y = t; }
  return x; }""",
    "lcm": """fn pw_lcm(a: i32, b: i32) -> i32 {
  let g = pw_gcd(a, b); if (g == 0) { return 0; } return abs(a / g * b); }""",
    "heaviside": """fn pw_heaviside(x: i32, v: i32) -> i32 {
  if (x == 0) { return v; } return select(0, 1, x > 0); }""",
}

_HELPERS = {"f32": _F32, "i32": _I32, "b32": _I32}
_SELF = (("self", "Tensor"),)
_BINARY = (("self", "Tensor"), ("other", "Tensor"))


def _kernel(name: str, expression: str, args: tuple = _SELF, promotion: str = "int_to_float",
            allowed: str | None = None) -> Any:
    return make_kernel(name, dict(args=args, promotion=promotion, dtypes=allowed,
                                  wgsl=expression, helpers=_HELPERS))


def _checked(name: str, kernel: Any, numbers: bool = True, half: bool = True,
             promotion: str = "int_to_float", allowed: str | None = None) -> Any:
    """``kernel`` behind the CPU backend's checks: Python numbers (``numbers``) and half
    types (``half``) are rejected where PyTorch has no kernel for them."""
    if numbers and half:
        return kernel

    def checked(*operands: Any) -> Tensor:
        if not numbers:
            require_tensors(name, *operands)
        if not half:
            _, out = D.pointwise_result_dtypes(name, promotion, allowed, operands)
            reject_half(name, out)
        return kernel(*operands)
    checked.__name__ = name
    return checked


KERNELS: dict[str, Any] = {}

# unary: (name, expression, computes half types)
_UNARY = (
    ("acosh", "pw_acosh(v_self)", True), ("asinh", "pw_asinh(v_self)", True),
    ("atanh", "pw_atanh(v_self)", True), ("lgamma", "pw_lgamma(v_self)", True),
    ("digamma", "pw_digamma(v_self)", True), ("ndtr", "pw_ndtr(v_self)", True),
    ("entr", "pw_entr(v_self)", True),
    ("i0", "pw_bessel_i(v_self, 0, false)", True), ("i0e", "pw_bessel_i(v_self, 0, true)", True),
    ("i1", "pw_bessel_i(v_self, 1, false)", True), ("i1e", "pw_bessel_i(v_self, 1, true)", True),
    ("ndtri", "pw_ndtri(v_self)", False), ("log_ndtr", "pw_log_ndtr(v_self)", False),
    ("erfcx", "pw_erfcx(v_self)", False), ("airy_ai", "pw_airy_ai(v_self)", False),
    ("bessel_j0", "pw_bessel_j0(v_self)", False), ("bessel_j1", "pw_bessel_j1(v_self)", False),
    ("bessel_y0", "pw_bessel_y(v_self, 0)", False), ("bessel_y1", "pw_bessel_y(v_self, 1)", False),
    ("modified_bessel_i0", "pw_bessel_i(v_self, 0, false)", False),
    ("modified_bessel_i1", "pw_bessel_i(v_self, 1, false)", False),
    ("modified_bessel_k0", "pw_bessel_k(v_self, 0.0, false)", False),
    ("modified_bessel_k1", "pw_bessel_k(v_self, 1.0, false)", False),
    ("scaled_modified_bessel_k0", "pw_bessel_k(v_self, 0.0, true)", False),
    ("scaled_modified_bessel_k1", "pw_bessel_k(v_self, 1.0, true)", False),
    ("spherical_bessel_j0", "pw_spherical_bessel_j0(v_self)", False),
)
for _name, _expression, _half in _UNARY:
    KERNELS[_name] = _checked(_name, _kernel(_name, _expression), half=_half)

KERNELS["xlog1py"] = _kernel("xlog1py", "pw_xlog1py(v_self, v_other)", _BINARY)
KERNELS["zeta"] = _checked("zeta", _kernel("zeta", "pw_zeta(v_self, v_other)", _BINARY),
                           half=False)
for _name, _component in (("igamma", "x"), ("igammac", "y")):
    KERNELS[_name] = _checked(_name, _kernel(_name, f"pw_igamma_pair(v_self, v_other).{_component}",
                                             _BINARY, allowed="floating"), numbers=False)
for _name in ("gcd", "lcm"):
    KERNELS[_name] = _checked(_name, _kernel(_name, f"pw_{_name}(v_self, v_other)", _BINARY,
                                             "default", "integral"), numbers=False)

_POLYGAMMA = _kernel("polygamma", "pw_polygamma(v_n, v_self)", (("n", "i32"), ("self", "Tensor")))


def polygamma(n: int, self: Tensor) -> Tensor:
    if n < 0:
        raise SchemaError("polygamma(n, x) does not support negative n.")
    return _POLYGAMMA(n, self)


_HEAVISIDE = _kernel("heaviside", "pw_heaviside(v_self, v_values)",
                     (("self", "Tensor"), ("values", "Tensor")), "default")
_NEXTAFTER = _kernel("nextafter", "pw_nextafter(v_self, v_other)", _BINARY, "default")


def heaviside(self: Tensor, values: Tensor) -> Tensor:
    require_tensors("heaviside", self, values)
    check_operands_same_dtype("heaviside", self, values)
    return _HEAVISIDE(self, values)


def nextafter(self: Tensor, other: Tensor) -> Tensor:
    require_tensors("nextafter", self, other)
    check_float_operands("nextafter_cpu", self, other)
    promoted = D.result_type(self, other)  # PyTorch promotes nextafter's operands
    if promoted is not D.float32:
        # the next value of a half type is one of its own: float32 bit steps are not it
        raise DTypeError(f"nextafter: not implemented for '{promoted.name}' on wgpu "
                         "(float32 only)")
    return _NEXTAFTER(self, other)


# the exponent field moved to 126 gives the mantissa in [0.5, 1); subnormals are normalized
# first (their exponent comes from the leading zeros)
_FREXP_BODY = """  let bits = bitcast<u32>(f32({x}));
  let field = (bits >> 23u) & 0xffu; var fraction = bits & 0x7fffffu; var exponent = 0;
  var mantissa = f32({x});
  if (field == 255u || (field == 0u && fraction == 0u)) {{ exponent = 0; }}
  else {{
    if (field == 0u) {{
      let top = 31 - i32(countLeadingZeros(fraction));
      exponent = top - 148; fraction = (fraction << u32(23 - top)) & 0x7fffffu;
    }} else {{ exponent = i32(field) - 126; }}
    mantissa = bitcast<f32>((bits & 0x80000000u) | (126u << 23u) | fraction);
  }}
  b{m}[e0] = {mantissa};
  b{e}[e1] = {exponent};"""


def frexp(self: Tensor) -> tuple[Tensor, Tensor]:
    if not self.dtype.is_floating_point:
        raise DTypeError("torch.frexp() only supports floating-point dtypes")
    check_dtype(self.dtype, "frexp")
    mantissa = empty(self._shape, self.dtype, self._device)
    exponent = empty(self._shape, D.int32, self._device)
    launch = Launch(mantissa, [self], extra_outputs=[exponent])
    body = _FREXP_BODY.format(x=load(launch.operand(2), self.dtype), m=launch.binding[0],
                              e=launch.binding[1], mantissa=store("mantissa", self.dtype),
                              exponent=store("exponent", D.int32))
    launch.run(body)
    return mantissa, exponent


_CHEBYSHEV_KINDS = {"t": 0, "u": 1, "v": 2, "w": 3}
_FAMILIES = {"hermite_polynomial_h": 0, "hermite_polynomial_he": 1, "laguerre_polynomial_l": 2,
             "legendre_polynomial_p": 3}


def _polynomial(name: str, expression: str) -> Any:
    kernel = _kernel(name, expression, (("x", "Tensor"), ("n", "Tensor")), "default")

    def polynomial(x: Any, n: Any) -> Tensor:
        promoted, out = D.pointwise_result_dtypes(name, "default", None, (x, n))
        reject_half(name, out)
        if not promoted.is_floating_point:  # integer x and n: the default float type
            x = x.to(D.get_default_dtype()) if isinstance(x, Tensor) else float(x)
        return kernel(x, n)
    polynomial.__name__ = name
    return polynomial


for _kind, _number in _CHEBYSHEV_KINDS.items():
    KERNELS[f"chebyshev_polynomial_{_kind}"] = _polynomial(
        f"chebyshev_polynomial_{_kind}", f"pw_chebyshev(v_x, v_n, {_number})")
    KERNELS[f"shifted_chebyshev_polynomial_{_kind}"] = _polynomial(
        f"shifted_chebyshev_polynomial_{_kind}", f"pw_chebyshev(v_x + v_x - 1.0, v_n, {_number})")
for _name, _number in _FAMILIES.items():
    KERNELS[_name] = _polynomial(_name, f"pw_orthogonal(v_x, v_n, {_number})")

KERNELS.update({"polygamma": polygamma, "heaviside": heaviside, "nextafter": nextafter,
                "frexp": frexp})
