/* Pointwise activations and their backwards, float32 (Note [native kernel contract]). */
#include "common.h"

typedef struct {
    const float *x;
    float *out;
} unary_f32;

VOLTA_VECTOR static void sigmoid_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const unary_f32 *c = ctx;
    const float *x = c->x;
    float *out = c->out;
    for (Py_ssize_t i = begin; i < end; i++) out[i] = 1.0f / (1.0f + volta_expf(-x[i]));
}

/* Elements per thread below which one thread is faster (a pass over 32k floats takes ~10 us). */
#define GRAIN 32768

/* sigmoid(x, out, threads): out = 1 / (1 + e^-x) */
static PyObject *sigmoid(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("sigmoid", nargs, 3);
    int threads = (int)volta_arg_long(args[2]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    volta_array a[2];
    char kind;
    if (volta_get_arrays(args, 2, 1, a, &kind) < 0) return NULL;
    if (kind != 'f' || a[0].size != a[1].size) {
        volta_release_arrays(a, 2);
        PyErr_SetString(PyExc_ValueError, "sigmoid: two float32 arrays of one size");
        return NULL;
    }
    unary_f32 ctx = {a[0].data, a[1].data};
    Py_BEGIN_ALLOW_THREADS
    volta_parallel(a[0].size, GRAIN, threads, sigmoid_range, &ctx);
    Py_END_ALLOW_THREADS
    volta_release_arrays(a, 2);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"sigmoid", (PyCFunction)(void (*)(void))sigmoid, METH_FASTCALL, "out = sigmoid(x)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_pointwise", NULL, -1, methods};

PyMODINIT_FUNC PyInit__pointwise(void) { return PyModule_Create(&module); }
