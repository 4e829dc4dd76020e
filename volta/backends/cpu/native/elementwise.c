/* float32 arithmetic: add/sub (with alpha), mul, div of two operands that are each a full
 * rows x cols array, a row vector (cols), a column vector (rows) or a scalar; and neg
 * (Note [native kernel contract]). Out-of-place or in place: `out` may be the same memory as a
 * full operand (each element is read before it is written), never a shifted view of one. */
#include "common.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV };
enum { FULL, ROW, COLUMN, SCALAR };

typedef struct {
    const float *data;
    Py_ssize_t row_step, col_step; /* elements: (cols, 1) full, (0, 1) row, (1, 0) column */
} operand_f32;

typedef struct {
    int op;
    float alpha;
    Py_ssize_t cols;
    operand_f32 a, b;
    float *out;
} binary_f32;

/* One loop per (op, which operands step): the compiler vectorises each; a switch inside the
 * element loop would not. */
#define EW_LOOPS(EXPR)                                                                     \
    do {                                                                                   \
        if (sa && sb) {                                                                    \
            for (Py_ssize_t i = 0; i < n; i++) {                                           \
                float x = a[i], y = b[i];                                                  \
                out[i] = (EXPR);                                                           \
            }                                                                              \
        } else if (sa) {                                                                   \
            const float y = b[0];                                                          \
            for (Py_ssize_t i = 0; i < n; i++) {                                           \
                float x = a[i];                                                            \
                out[i] = (EXPR);                                                           \
            }                                                                              \
        } else if (sb) {                                                                   \
            const float x = a[0];                                                          \
            for (Py_ssize_t i = 0; i < n; i++) {                                           \
                float y = b[i];                                                            \
                out[i] = (EXPR);                                                           \
            }                                                                              \
        } else {                                                                           \
            const float x = a[0], y = b[0];                                                \
            for (Py_ssize_t i = 0; i < n; i++) out[i] = (EXPR);                            \
        }                                                                                  \
    } while (0)

/* out[0..n) = a op b along one row; sa/sb: whether a/b step along the row (1) or stay (0). */
VOLTA_VECTOR static void binary_run(int op, float alpha, float *out, const float *a, int sa,
                                    const float *b, int sb, Py_ssize_t n) {
    switch (op) {
    case OP_ADD:
        if (alpha == 1.0f)
            EW_LOOPS(x + y);
        else
            EW_LOOPS(fmaf(alpha, y, x)); /* PyTorch's one rounding */
        break;
    case OP_SUB:
        if (alpha == 1.0f)
            EW_LOOPS(x - y);
        else
            EW_LOOPS(fmaf(-alpha, y, x));
        break;
    case OP_MUL:
        EW_LOOPS(x * y);
        break;
    default:
        EW_LOOPS(x / y);
        break;
    }
}

static void binary_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const binary_f32 *c = ctx;
    Py_ssize_t cols = c->cols, row = begin / cols, col = begin % cols;
    while (begin < end) {
        Py_ssize_t n = cols - col < end - begin ? cols - col : end - begin;
        const float *a = c->a.data + row * c->a.row_step + col * c->a.col_step;
        const float *b = c->b.data + row * c->b.row_step + col * c->b.col_step;
        binary_run(c->op, c->alpha, c->out + begin, a, (int)c->a.col_step, b, (int)c->b.col_step,
                   n);
        begin += n;
        row++;
        col = 0;
    }
}

/* Elements per thread below which one thread is faster. Measured (add, warm threads): 32k
 * floats take 1.8 us on one thread or two; 64k take 4.1 us on one, 2.4 us on two. */
#define GRAIN 32768

/* Reads operand `obj` of the given mode into `o` (an array of the size the mode needs, or a
 * Python float for SCALAR, stored in *scalar). Returns 0, or -1 with an error set. */
static int get_operand(PyObject *obj, long mode, Py_ssize_t rows, Py_ssize_t cols,
                       volta_array *array, int *held, float *scalar, operand_f32 *o) {
    *held = 0;
    if (mode == SCALAR) {
        double value = PyFloat_AsDouble(obj);
        if (value == -1.0 && PyErr_Occurred()) return -1;
        *scalar = (float)value;
        o->data = scalar;
        o->row_step = o->col_step = 0;
        return 0;
    }
    Py_ssize_t expected = mode == FULL ? rows * cols : mode == ROW ? cols : rows;
    if (mode < FULL || mode > COLUMN) {
        PyErr_SetString(PyExc_ValueError, "elementwise: unknown operand mode");
        return -1;
    }
    if (volta_get_array(obj, array, 0) < 0) return -1;
    *held = 1;
    if (volta_float_kind(array) != 'f' || array->size != expected) {
        PyErr_SetString(PyExc_ValueError, "elementwise: operand is not float32 of the mode's size");
        return -1;
    }
    o->data = array->data;
    o->row_step = mode == FULL ? cols : mode == COLUMN ? 1 : 0;
    o->col_step = mode == COLUMN ? 0 : 1;
    return 0;
}

/* binary(op, a, b, out, rows, cols, a_mode, b_mode, alpha, threads):
 * out[r, c] = a[r, c] op alpha * b[r, c] (alpha for add/sub, fused as in PyTorch), each operand read per its mode
 * (0 full, 1 row vector, 2 column vector, 3 Python float); out is a rows x cols float32 array. */
static PyObject *binary(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("binary", nargs, 10);
    long op = volta_arg_long(args[0]);
    Py_ssize_t rows = PyLong_AsSsize_t(args[4]), cols = PyLong_AsSsize_t(args[5]);
    long a_mode = volta_arg_long(args[6]), b_mode = volta_arg_long(args[7]);
    double alpha = volta_arg_double(args[8]);
    int threads = (int)volta_arg_long(args[9]);
    if (PyErr_Occurred()) return NULL;
    if (op < OP_ADD || op > OP_DIV || rows < 0 || cols < 0) {
        PyErr_SetString(PyExc_ValueError, "binary: bad op or shape");
        return NULL;
    }
    volta_array a, b, out;
    int a_held = 0, b_held = 0;
    float a_scalar, b_scalar;
    binary_f32 ctx = {(int)op, (float)alpha, cols};
    PyObject *result = NULL;
    if (get_operand(args[1], a_mode, rows, cols, &a, &a_held, &a_scalar, &ctx.a) < 0) goto done;
    if (get_operand(args[2], b_mode, rows, cols, &b, &b_held, &b_scalar, &ctx.b) < 0) goto done;
    if (volta_get_array(args[3], &out, 1) < 0) goto done;
    if (volta_float_kind(&out) != 'f' || out.size != rows * cols) {
        volta_release(&out);
        PyErr_SetString(PyExc_ValueError, "binary: out must be float32 of rows * cols");
        goto done;
    }
    ctx.out = out.data;
    if (cols > 0) {
        Py_BEGIN_ALLOW_THREADS
        volta_parallel(rows * cols, GRAIN, threads, binary_range, &ctx);
        Py_END_ALLOW_THREADS
    }
    volta_release(&out);
    result = Py_None;
    Py_INCREF(result);
done:
    if (a_held) volta_release(&a);
    if (b_held) volta_release(&b);
    return result;
}

typedef struct {
    const float *x;
    float *out;
} unary_f32;

VOLTA_VECTOR static void neg_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const unary_f32 *c = ctx;
    const float *x = c->x;
    float *out = c->out;
    for (Py_ssize_t i = begin; i < end; i++) out[i] = -x[i];
}

/* neg(x, out, threads): out = -x (x may be out) */
static PyObject *neg(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("neg", nargs, 3);
    int threads = (int)volta_arg_long(args[2]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    volta_array a[2];
    char kind;
    if (volta_get_arrays(args, 2, 1, a, &kind) < 0) return NULL;
    if (kind != 'f' || a[0].size != a[1].size) {
        volta_release_arrays(a, 2);
        PyErr_SetString(PyExc_ValueError, "neg: two float32 arrays of one size");
        return NULL;
    }
    unary_f32 ctx = {a[0].data, a[1].data};
    Py_BEGIN_ALLOW_THREADS
    volta_parallel(a[0].size, GRAIN, threads, neg_range, &ctx);
    Py_END_ALLOW_THREADS
    volta_release_arrays(a, 2);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    VOLTA_METHOD(binary,
                 "out = a op alpha * b over rows x cols, operands full, row, column or scalar"),
    VOLTA_METHOD(neg, "out = -x"),
    {NULL, NULL, 0, NULL},
};

VOLTA_MODULE(elementwise)
