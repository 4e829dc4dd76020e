/* The generated pointwise kernels' prologue and epilogue in C (pointwise_runtime.prepare's
 * fast path, storage.wrap_as), and numpy's quiet error state around them.
 *
 * Note [Compiled pointwise runtime]
 * pointwise_runtime.py and storage.py are the definition; these functions do the same for the
 * calls every small op makes and hand everything else to them:
 * * prepare: the operands are exact Tensors of one dtype (not a half type, not rejected by the
 *   op's dtype category) and one shape: their cached host arrays (``_np``), else the Python
 *   prepare runs;
 * * wrap_as, wrap: a C-contiguous ndarray that owns its memory, already of the dtype (wrap:
 *   of a volta dtype): Storage and Tensor built as new_owning_tensor builds them (slots set
 *   directly), else the Python function runs;
 * * array: a Tensor's cached host view, else host_view; anything else unchanged;
 * * quiet_on / quiet_off: numpy's error-state context variable set and reset (Note [quiet
 *   numpy]), without the partial and bound-method calls.
 * Objects' slots are found through their member descriptors (``__slots__``) at setup. numpy's
 * array struct is read through its public layout (numpy's headers read the same fields with
 * macros, so every compiled numpy extension relies on it); setup checks it on a sample array
 * and leaves wrap_as to Python when it does not match.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* numpy's PyArrayObject_fields, the part read here (ndarraytypes.h) */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
} ArrayFields;

#define ARRAY_C_CONTIGUOUS 0x0001

static PyTypeObject *ndarray_type, *tensor_type, *storage_type;
static PyObject *python_prepare, *python_wrap_as, *python_wrap, *host_view;
static PyObject *numpy_to_volta;      /* dict numpy dtype -> volta dtype */
static PyObject *half_dtypes;         /* tuple */
static PyObject *bool_dtype;
static PyObject *bool_to_int64_ops;   /* set of op names */
static PyObject *checks_bool_only;    /* set of dtype categories */
static PyObject *str_default;
static PyObject *cpu_device, *cpu_info, *cpu_key_mask, *zero;
static PyObject *contiguous_strides;  /* dict shape -> strides */
static PyObject *cached_contiguous_strides;
static PyObject *quiet_var, *quiet_value;  /* numpy's error-state ContextVar, "ignore all" */
static PyTypeObject *dtype_type;
static int array_layout_ok, storage_ready, prepare_ready;

/* slots: Tensor's, Storage's, dtype's */
static Py_ssize_t t_storage, t_shape, t_stride, t_offset, t_dtype, t_device, t_ks, t_np;
static Py_ssize_t s_handle, s_numel, s_dtype, s_device, s_backend, s_key_mask, s_version;
static Py_ssize_t d_numpy;

#define SLOT(object, offset) (*(PyObject **)((char *)(object) + (offset)))

static int slot_offset(PyObject *type, const char *name, Py_ssize_t *offset) {
    PyObject *descriptor = PyObject_GetAttrString(type, name);
    if (descriptor == NULL)
        return -1;
    int ok = Py_IS_TYPE(descriptor, &PyMemberDescr_Type);
    if (ok) {
        PyMemberDef *member = ((PyMemberDescrObject *)descriptor)->d_member;
        ok = member->type == T_OBJECT_EX || member->type == T_OBJECT;
        *offset = member->offset;
    }
    Py_DECREF(descriptor);
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s is not a __slots__ attribute", name);
        return -1;
    }
    return 0;
}

/* store ``value`` (a new reference) in a slot */
static inline void set_slot(PyObject *object, Py_ssize_t offset, PyObject *value) {
    Py_XSETREF(SLOT(object, offset), value);
}

/* -- prepare ---------------------------------------------------------------------------------- */

static PyObject *call_fallback(PyObject *fn, PyObject *const *args, Py_ssize_t nargs) {
    return PyObject_Vectorcall(fn, args, nargs, NULL);
}

/* prepare(name, promotion, allowed, *operands) -> (arrays, dtype) */
static PyObject *prepare(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (!prepare_ready || !storage_ready || nargs < 4)
        return call_fallback(python_prepare, args, nargs);
    PyObject *name = args[0], *promotion = args[1], *allowed = args[2], *first = args[3];
    if (Py_TYPE(first) != tensor_type)
        return call_fallback(python_prepare, args, nargs);
    if (promotion != str_default) {
        int same = PyUnicode_Check(promotion) && PyUnicode_Compare(promotion, str_default) == 0;
        if (!same) {
            if (PyErr_Occurred())
                return NULL;
            return call_fallback(python_prepare, args, nargs);
        }
    }
    PyObject *dt = SLOT(first, t_dtype);
    if (dt == NULL)
        return call_fallback(python_prepare, args, nargs);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(half_dtypes); i++)
        if (dt == PyTuple_GET_ITEM(half_dtypes, i))
            return call_fallback(python_prepare, args, nargs);
    if (allowed != Py_None) {
        int bool_only = PySet_Contains(checks_bool_only, allowed);
        if (bool_only < 0)
            PyErr_Clear();  /* unhashable: Python's ``in`` raises, let it */
        if (bool_only <= 0 || dt == bool_dtype)
            return call_fallback(python_prepare, args, nargs);
    }
    if (dt == bool_dtype) {
        int widened = PySet_Contains(bool_to_int64_ops, name);
        if (widened != 0) {
            PyErr_Clear();
            return call_fallback(python_prepare, args, nargs);
        }
    }
    PyObject *shape = SLOT(first, t_shape);
    Py_ssize_t count = nargs - 3;
    PyObject *arrays = PyList_New(count);
    if (arrays == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *x = args[3 + i];
        int fast = Py_TYPE(x) == tensor_type && SLOT(x, t_dtype) == dt;
        if (fast) {
            PyObject *x_shape = SLOT(x, t_shape);
            if (x_shape != shape) {
                if (x_shape == NULL || shape == NULL)
                    fast = 0;
                else {
                    fast = PyObject_RichCompareBool(x_shape, shape, Py_EQ);
                    if (fast < 0) {
                        Py_DECREF(arrays);
                        return NULL;
                    }
                }
            }
        }
        if (!fast) {
            Py_DECREF(arrays);
            return call_fallback(python_prepare, args, nargs);
        }
        PyObject *array = SLOT(x, t_np);
        if (array != NULL && array != Py_None)
            Py_INCREF(array);
        else if ((array = PyObject_CallOneArg(host_view, x)) == NULL) {
            Py_DECREF(arrays);
            return NULL;
        }
        PyList_SET_ITEM(arrays, i, array);
    }
    PyObject *result = PyTuple_New(2);
    if (result == NULL) {
        Py_DECREF(arrays);
        return NULL;
    }
    PyTuple_SET_ITEM(result, 0, arrays);
    Py_INCREF(dt);
    PyTuple_SET_ITEM(result, 1, dt);
    return result;
}

/* -- wrap_as ---------------------------------------------------------------------------------- */

/* new_owning_tensor(arr, numel, dt, cpu, info, shape, strides, arr), for a C-contiguous
 * ``arr`` that owns its memory */
static PyObject *owning_tensor(PyObject *arr, PyObject *dt) {
    ArrayFields *fields = (ArrayFields *)arr;
    Py_ssize_t nd = fields->nd, size = 1;
    PyObject *shape = PyTuple_New(nd);
    if (shape == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *extent = PyLong_FromSsize_t(fields->dimensions[i]);
        if (extent == NULL) {
            Py_DECREF(shape);
            return NULL;
        }
        PyTuple_SET_ITEM(shape, i, extent);
        size *= fields->dimensions[i];
    }
    PyObject *strides = PyDict_GetItemWithError(contiguous_strides, shape);
    if (strides != NULL)
        Py_INCREF(strides);
    else if (PyErr_Occurred() ||
             (strides = PyObject_CallOneArg(cached_contiguous_strides, shape)) == NULL) {
        Py_DECREF(shape);
        return NULL;
    }
    PyObject *numel = PyLong_FromSsize_t(size);
    PyObject *storage = numel ? storage_type->tp_alloc(storage_type, 0) : NULL;
    PyObject *tensor = storage ? tensor_type->tp_alloc(tensor_type, 0) : NULL;
    if (tensor == NULL) {
        Py_XDECREF(storage);
        Py_XDECREF(numel);
        Py_DECREF(shape);
        Py_DECREF(strides);
        return NULL;
    }
    set_slot(storage, s_handle, Py_NewRef(arr));
    set_slot(storage, s_numel, numel);
    set_slot(storage, s_dtype, Py_NewRef(dt));
    set_slot(storage, s_device, Py_NewRef(cpu_device));
    set_slot(storage, s_backend, Py_NewRef(cpu_info));
    set_slot(storage, s_key_mask, Py_NewRef(cpu_key_mask));
    set_slot(storage, s_version, Py_NewRef(zero));
    set_slot(tensor, t_storage, storage);
    set_slot(tensor, t_shape, shape);
    set_slot(tensor, t_stride, strides);
    set_slot(tensor, t_offset, Py_NewRef(zero));
    set_slot(tensor, t_dtype, Py_NewRef(dt));
    set_slot(tensor, t_device, Py_NewRef(cpu_device));
    set_slot(tensor, t_ks, Py_NewRef(cpu_key_mask));
    set_slot(tensor, t_np, Py_NewRef(arr));
    return tensor;
}

/* whether ``arr`` is an exact ndarray, C-contiguous, owning its memory */
static inline int fresh_array(PyObject *arr) {
    if (!storage_ready || !array_layout_ok || cpu_info == NULL || Py_TYPE(arr) != ndarray_type)
        return 0;
    ArrayFields *fields = (ArrayFields *)arr;
    return (fields->flags & ARRAY_C_CONTIGUOUS) && fields->base == NULL;
}

/* array(t) -> t's host view (``_np``, else host_view(t)); anything but a Tensor unchanged */
static PyObject *array(PyObject *module, PyObject *t) {
    if (!storage_ready || !PyObject_TypeCheck(t, tensor_type))
        return Py_NewRef(t);
    PyObject *cached = SLOT(t, t_np);
    if (cached != NULL && cached != Py_None)
        return Py_NewRef(cached);
    return PyObject_CallOneArg(host_view, t);
}

/* wrap_as(arr, dt) -> Tensor */
static PyObject *wrap_as(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !fresh_array(args[0]) || Py_TYPE(args[1]) != dtype_type
            || ((ArrayFields *)args[0])->descr != SLOT(args[1], d_numpy))
        return call_fallback(python_wrap_as, args, nargs);
    return owning_tensor(args[0], args[1]);
}

/* wrap(arr) -> Tensor of arr's dtype */
static PyObject *wrap(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1 || !fresh_array(args[0]))
        return call_fallback(python_wrap, args, nargs);
    PyObject *dt = PyDict_GetItemWithError(numpy_to_volta, ((ArrayFields *)args[0])->descr);
    if (dt == NULL) {
        if (PyErr_Occurred())
            return NULL;
        return call_fallback(python_wrap, args, nargs);
    }
    return owning_tensor(args[0], dt);
}

/* -- numpy's quiet error state ------------------------------------------------------------------ */

static PyObject *quiet_on(PyObject *module, PyObject *unused) {
    if (!prepare_ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup_prepare has not run");
        return NULL;
    }
    return PyContextVar_Set(quiet_var, quiet_value);
}

static PyObject *quiet_off(PyObject *module, PyObject *token) {
    if (!prepare_ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup_prepare has not run");
        return NULL;
    }
    if (PyContextVar_Reset(quiet_var, token) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* -- setup ------------------------------------------------------------------------------------- */

#define KEEP(target, value) do { Py_INCREF(value); Py_XSETREF(target, value); } while (0)

static PyObject *setup_storage(PyObject *module, PyObject *args) {
    PyObject *tensor, *storage, *wrap_as_fn, *wrap_fn, *view, *dtypes, *strides, *cached,
             *device, *float32, *sample, *sample_dtype;
    if (!PyArg_ParseTuple(args, "OOOO!O!O!O!OOOOO", &wrap_as_fn, &wrap_fn, &view, &PyDict_Type,
                          &dtypes,
                          &PyType_Type, &tensor, &PyType_Type, &storage, &PyDict_Type, &strides, &cached, &device, &float32, &sample,
                          &sample_dtype))
        return NULL;
    storage_ready = 0;
    if (slot_offset(tensor, "_storage", &t_storage) || slot_offset(tensor, "_shape", &t_shape)
            || slot_offset(tensor, "_stride", &t_stride) || slot_offset(tensor, "_offset", &t_offset)
            || slot_offset(tensor, "dtype", &t_dtype) || slot_offset(tensor, "_device", &t_device)
            || slot_offset(tensor, "_ks", &t_ks) || slot_offset(tensor, "_np", &t_np)
            || slot_offset(storage, "handle", &s_handle) || slot_offset(storage, "numel", &s_numel)
            || slot_offset(storage, "dtype", &s_dtype) || slot_offset(storage, "device", &s_device)
            || slot_offset(storage, "backend", &s_backend)
            || slot_offset(storage, "key_mask", &s_key_mask)
            || slot_offset(storage, "version", &s_version)
            || slot_offset((PyObject *)Py_TYPE(float32), "numpy", &d_numpy))
        return NULL;
    KEEP(dtype_type, Py_TYPE(float32));
    KEEP(tensor_type, (PyTypeObject *)tensor);
    KEEP(storage_type, (PyTypeObject *)storage);
    KEEP(python_wrap_as, wrap_as_fn);
    KEEP(python_wrap, wrap_fn);
    KEEP(host_view, view);
    KEEP(numpy_to_volta, dtypes);
    KEEP(contiguous_strides, strides);
    KEEP(cached_contiguous_strides, cached);
    KEEP(cpu_device, device);
    KEEP(ndarray_type, Py_TYPE(sample));
    /* the sample is np.empty((3, 5), float32): check the fields read above against it */
    ArrayFields *fields = (ArrayFields *)sample;
    array_layout_ok = fields->nd == 2 && fields->dimensions[0] == 3 && fields->dimensions[1] == 5
                      && fields->strides[1] == 4 && fields->strides[0] == 20
                      && fields->base == NULL && fields->descr == sample_dtype
                      && (fields->flags & ARRAY_C_CONTIGUOUS);
    storage_ready = 1;
    return PyBool_FromLong(array_layout_ok);
}

static PyObject *set_backend_info(PyObject *module, PyObject *info) {
    PyObject *key = PyObject_GetAttrString(info, "key");
    PyObject *mask = key ? PyObject_GetAttrString(key, "mask") : NULL;
    Py_XDECREF(key);
    if (mask == NULL)
        return NULL;
    Py_XSETREF(cpu_key_mask, mask);
    KEEP(cpu_info, info);
    Py_RETURN_NONE;
}

static PyObject *setup_prepare(PyObject *module, PyObject *args) {
    PyObject *prep, *halves, *boolean, *widened, *bool_only, *var, *value;
    if (!PyArg_ParseTuple(args, "OO!OO!O!OO", &prep, &PyTuple_Type, &halves, &boolean,
                          &PyFrozenSet_Type, &widened, &PyFrozenSet_Type, &bool_only, &var,
                          &value))
        return NULL;
    if (!PyContextVar_CheckExact(var)) {
        PyErr_SetString(PyExc_TypeError, "numpy's error state is a ContextVar");
        return NULL;
    }
    KEEP(python_prepare, prep);
    KEEP(half_dtypes, halves);
    KEEP(bool_dtype, boolean);
    KEEP(bool_to_int64_ops, widened);
    KEEP(checks_bool_only, bool_only);
    KEEP(quiet_var, var);
    KEEP(quiet_value, value);
    prepare_ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"setup_storage", setup_storage, METH_VARARGS,
     "setup_storage(wrap_as, wrap, host_view, numpy dtype -> volta dtype, Tensor, Storage, CONTIGUOUS_STRIDES, cached_contiguous_strides, "
     "cpu, volta.float32, np.empty((3, 5), np.float32), np.dtype(np.float32)): what wrap_as builds with; "
     "whether numpy's array layout is the expected one."},
    {"array", array, METH_O, "storage.array: a kernel input's numpy view."},
    {"wrap", (PyCFunction)(void (*)(void))wrap, METH_FASTCALL,
     "storage.wrap (a fresh C-contiguous array of a volta dtype here, the rest in Python)."},
    {"set_backend_info", set_backend_info, METH_O, "The CPU backend's BackendInfo."},
    {"setup_prepare", setup_prepare, METH_VARARGS,
     "setup_prepare(prepare, half dtypes, bool, BOOL_TO_INT64_OPS, "
     "categories checking bool only, numpy's error-state ContextVar, its quiet value)."},
    {"prepare", (PyCFunction)(void (*)(void))prepare, METH_FASTCALL,
     "pointwise_runtime.prepare (its fast path here, the rest in Python)."},
    {"wrap_as", (PyCFunction)(void (*)(void))wrap_as, METH_FASTCALL,
     "storage.wrap_as (a fresh C-contiguous array of the dtype here, the rest in Python)."},
    {"quiet_on", quiet_on, METH_NOARGS, "Ignore numpy's floating-point errors; returns a token."},
    {"quiet_off", quiet_off, METH_O, "Undo the quiet_on that returned this token."},
    {NULL},
};

static struct PyModuleDef runtime_module = {
    PyModuleDef_HEAD_INIT, "_runtime",
    "The pointwise kernels' prologue and epilogue in C (Note [Compiled pointwise runtime]).",
    -1, module_methods,
};

PyMODINIT_FUNC PyInit__runtime(void) {
    str_default = PyUnicode_InternFromString("default");
    zero = PyLong_FromLong(0);
    if (str_default == NULL || zero == NULL)
        return NULL;
    return PyModule_Create(&runtime_module);
}
