/* The dispatcher's call path in C: OperatorHandle.__call__, redispatch and call_with_keyset,
 * the thread-local included/excluded key sets they read, and the argument-checking wrapper of
 * the generated op functions (binding.checked).
 *
 * Note [Compiled call path]
 * volta/dispatch/dispatcher.py's _PythonCallPath is the definition; this file is the same code
 * for the case every call takes: the key set of the tensor arguments (each tensor's ``_ks``
 * slot) and the thread-local sets fit in 64 bits, the op's tensor arguments are plain Tensor
 * positions (no Tensor[] and no ``dispatch_on``), and the key set is in the op's cache. A cache
 * miss calls the op's Python ``_resolve_and_cache`` (generations, device mismatch errors and
 * every resolution rule stay there); anything else (huge key sets, Tensor lists, missing
 * arguments, keywords) runs the Python call path itself. A Python frame costs more than this
 * whole function, which is why it exists.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>

/* -- the thread-local key sets ---------------------------------------------------------------
 * Every Python thread is an OS thread, so C thread-locals are per Python thread, as
 * threading.local is. Each thread keeps the Python int it was given (read back unchanged) and
 * its 64-bit value for the call path; ``wide`` says the int did not fit (the Python path runs).
 * The last values a thread set are not released when it ends: two ints per thread. */
typedef struct {
    PyObject *included, *excluded; /* NULL: 0 */
    uint64_t included_bits, excluded_bits;
    int included_wide, excluded_wide;
} LocalKeys;

static _Thread_local LocalKeys local_keys;

static PyTypeObject *tensor_type;   /* volta's Tensor (set_tensor_type) */
static Py_ssize_t ks_offset = -1;   /* where a Tensor keeps its _ks slot */
static PyObject *python_call, *python_redispatch, *python_call_with_keyset;
static PyObject *str_resolve_and_cache, *str_translated, *str_mask_and_above;

/* a Python int as 64 key bits; 0 with *wide set when it is not a non-negative int < 2**64 */
static uint64_t key_bits(PyObject *value, int *wide) {
    *wide = 0;
    if (!PyLong_CheckExact(value)) {
        *wide = 1;
        return 0;
    }
    uint64_t bits = PyLong_AsUnsignedLongLong(value);
    if (bits == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        *wide = 1;
        return 0;
    }
    return bits;
}

static void set_local(PyObject **slot, uint64_t *bits, int *wide, PyObject *value) {
    Py_INCREF(value);
    Py_XSETREF(*slot, value);
    *bits = key_bits(value, wide);
}

typedef struct {
    PyObject_HEAD
} LocalKeysObject;

static PyObject *local_get(PyObject *self, void *which) {
    PyObject *value = which ? local_keys.excluded : local_keys.included;
    if (value == NULL)
        return PyLong_FromLong(0);
    Py_INCREF(value);
    return value;
}

static int local_set(PyObject *self, PyObject *value, void *which) {
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "the thread-local key sets cannot be deleted");
        return -1;
    }
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "a key set is an int, not %.100s", Py_TYPE(value)->tp_name);
        return -1;
    }
    if (which)
        set_local(&local_keys.excluded, &local_keys.excluded_bits, &local_keys.excluded_wide, value);
    else
        set_local(&local_keys.included, &local_keys.included_bits, &local_keys.included_wide, value);
    return 0;
}

static PyGetSetDef local_getset[] = {
    {"included", local_get, local_set, "keys added to every dispatch on this thread", NULL},
    {"excluded", local_get, local_set, "keys removed from every dispatch on this thread",
     (void *)1},
    {NULL},
};

static PyTypeObject LocalKeysType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "volta.dispatch.native._dispatch.LocalKeys",
    .tp_doc = "This thread's included and excluded dispatch key sets (ints).",
    .tp_basicsize = sizeof(LocalKeysObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_getset = local_getset,
};

/* -- the call path ---------------------------------------------------------------------------- */

#define MAX_POSITIONS 16

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *cache;             /* _cache: key set -> kernel */
    PyObject *tensor_positions;  /* tensor_positions: tuple of ints */
    char simple;                 /* _simple */
    int num_positions;           /* -1: more than MAX_POSITIONS (the Python path runs) */
    Py_ssize_t positions[MAX_POSITIONS];
} CallPath;

/* ``fn(op, *args)``: the Python call path, for what the C one does not handle */
static PyObject *call_python(PyObject *fn, PyObject *op, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *small[8];
    PyObject **all = nargs + nkw + 1 <= 8 ? small : PyMem_Malloc((nargs + nkw + 1) * sizeof(PyObject *));
    if (all == NULL)
        return PyErr_NoMemory();
    all[0] = op;
    for (Py_ssize_t i = 0; i < nargs + nkw; i++)
        all[i + 1] = args[i];
    PyObject *result = PyObject_Vectorcall(fn, all, nargs + 1, kwnames);
    if (all != small)
        PyMem_Free(all);
    return result;
}

/* The key bits of the op's tensor arguments; 0 with *fallback set when the Python path must
 * compute them (a missing argument, a _ks that is not a small int). */
static uint64_t tensor_keys(CallPath *op, PyObject *const *args, Py_ssize_t nargs, int *fallback) {
    uint64_t ks = 0;
    *fallback = 0;
    if (!op->simple || op->num_positions < 0 || ks_offset < 0) {
        *fallback = 1;
        return 0;
    }
    for (int p = 0; p < op->num_positions; p++) {
        Py_ssize_t i = op->positions[p];
        if (i >= nargs) {
            *fallback = 1;
            return 0;
        }
        PyObject *a = args[i];
        if (!PyObject_TypeCheck(a, tensor_type))
            continue;
        PyObject *value = *(PyObject **)((char *)a + ks_offset);
        int wide;
        uint64_t bits = value ? key_bits(value, &wide) : (wide = 1, 0);
        if (wide) {
            *fallback = 1;
            return 0;
        }
        ks |= bits;
    }
    return ks;
}

/* After ``kernel`` raised: ``op._translated(kernel, error)`` and, when it gives an exception,
 * raise that from the error (Note [Raw-error boundary]). Always returns NULL. */
static PyObject *raise_translated(PyObject *op, PyObject *kernel) {
    if (!PyErr_ExceptionMatches(PyExc_Exception))
        return NULL;
    PyObject *type, *error, *traceback;
    PyErr_Fetch(&type, &error, &traceback);
    PyErr_NormalizeException(&type, &error, &traceback);
    if (traceback != NULL)
        PyException_SetTraceback(error, traceback);
    PyObject *translated = PyObject_CallMethodObjArgs(op, str_translated, kernel, error, NULL);
    if (translated == NULL) {  /* raised while translating: chained to the error, as in Python */
        PyObject *type2, *error2, *traceback2;
        PyErr_Fetch(&type2, &error2, &traceback2);
        PyErr_NormalizeException(&type2, &error2, &traceback2);
        PyException_SetContext(error2, error);  /* steals error */
        Py_XDECREF(type);
        Py_XDECREF(traceback);
        PyErr_Restore(type2, error2, traceback2);
        return NULL;
    }
    if (translated == Py_None) {
        Py_DECREF(translated);
        PyErr_Restore(type, error, traceback);
        return NULL;
    }
    /* ``raise translated from error``: cause and context are the error */
    Py_INCREF(error);
    PyException_SetCause(translated, error);
    PyException_SetContext(translated, error);
    Py_XDECREF(type);
    Py_XDECREF(traceback);
    PyObject *translated_type = (PyObject *)Py_TYPE(translated);
    Py_INCREF(translated_type);
    /* Restore, not SetObject: SetObject would make the exception being handled outside the
     * op the context */
    PyErr_Restore(translated_type, translated, PyException_GetTraceback(translated));
    return NULL;
}

/* Look ``keyset`` up in the op's cache (``_resolve_and_cache`` on a miss) and call the kernel. */
static PyObject *run_kernel(CallPath *op, PyObject *keyset, PyObject *const *args,
                            Py_ssize_t nargs) {
    PyObject *cache = op->cache;
    PyObject *kernel = NULL;
    if (cache != NULL && PyDict_CheckExact(cache)) {
        kernel = PyDict_GetItemWithError(cache, keyset);
        if (kernel == NULL && PyErr_Occurred())
            return NULL;
        Py_XINCREF(kernel);  /* a registration may replace the cache while the kernel runs */
    }
    if (kernel == NULL) {
        PyObject *arg_tuple = PyTuple_New(nargs);
        if (arg_tuple == NULL)
            return NULL;
        for (Py_ssize_t i = 0; i < nargs; i++) {
            Py_INCREF(args[i]);
            PyTuple_SET_ITEM(arg_tuple, i, args[i]);
        }
        kernel = PyObject_CallMethodObjArgs((PyObject *)op, str_resolve_and_cache, keyset,
                                            arg_tuple, NULL);
        Py_DECREF(arg_tuple);
        if (kernel == NULL)
            return NULL;
    }
    PyObject *result = PyObject_Vectorcall(kernel, args, nargs, NULL);
    if (result == NULL)
        raise_translated((PyObject *)op, kernel);
    Py_DECREF(kernel);
    return result;
}

static PyObject *call_path_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                      PyObject *kwnames) {
    CallPath *op = (CallPath *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int fallback;
    uint64_t ks = tensor_keys(op, args, nargs, &fallback);
    if (fallback || (kwnames && PyTuple_GET_SIZE(kwnames)) || local_keys.included_wide
            || local_keys.excluded_wide)
        return call_python(python_call, self, args, nargs, kwnames);
    ks = (ks | local_keys.included_bits) & ~local_keys.excluded_bits;
    PyObject *keyset = PyLong_FromUnsignedLongLong(ks);
    if (keyset == NULL)
        return NULL;
    PyObject *result = run_kernel(op, keyset, args, nargs);
    Py_DECREF(keyset);
    return result;
}

static PyObject *call_path_redispatch(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                      PyObject *kwnames) {
    CallPath *op = (CallPath *)self;
    if (nargs < 1 || (kwnames && PyTuple_GET_SIZE(kwnames)))
        return call_python(python_redispatch, self, args, nargs, kwnames);
    PyObject *mask_object = PyObject_GetAttr(args[0], str_mask_and_above);
    if (mask_object == NULL)
        return NULL;
    int wide;
    uint64_t mask = key_bits(mask_object, &wide);
    Py_DECREF(mask_object);
    int fallback;
    uint64_t ks = tensor_keys(op, args + 1, nargs - 1, &fallback);
    if (wide || fallback || local_keys.included_wide || local_keys.excluded_wide)
        return call_python(python_redispatch, self, args, nargs, kwnames);
    /* exclude ``key`` and the keys above it while the kernel runs, then put back exactly the
     * int that was there */
    PyObject *saved = local_keys.excluded;  /* the reference moves here */
    uint64_t saved_bits = local_keys.excluded_bits;
    uint64_t excluded = saved_bits | mask;
    PyObject *excluded_object = PyLong_FromUnsignedLongLong(excluded);
    if (excluded_object == NULL)
        return NULL;
    local_keys.excluded = excluded_object;
    local_keys.excluded_bits = excluded;
    ks = (ks | local_keys.included_bits) & ~excluded;
    PyObject *result = NULL;
    PyObject *keyset = PyLong_FromUnsignedLongLong(ks);
    if (keyset != NULL) {
        result = run_kernel(op, keyset, args + 1, nargs - 1);
        Py_DECREF(keyset);
    }
    /* the kernel may have set the excluded set itself (and left it); Python's finally puts the
     * saved one back regardless */
    Py_XSETREF(local_keys.excluded, saved);
    local_keys.excluded_bits = saved_bits;
    local_keys.excluded_wide = 0;
    return result;
}

static PyObject *call_path_call_with_keyset(PyObject *self, PyObject *const *args,
                                            Py_ssize_t nargs, PyObject *kwnames) {
    if (nargs < 1 || (kwnames && PyTuple_GET_SIZE(kwnames)))
        return call_python(python_call_with_keyset, self, args, nargs, kwnames);
    return run_kernel((CallPath *)self, args[0], args + 1, nargs - 1);
}

static PyObject *call_path_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    CallPath *op = (CallPath *)type->tp_alloc(type, 0);
    if (op == NULL)
        return NULL;
    op->vectorcall = call_path_vectorcall;
    op->cache = PyDict_New();
    if (op->cache == NULL) {
        Py_DECREF(op);
        return NULL;
    }
    op->tensor_positions = PyTuple_New(0);
    op->num_positions = 0;
    op->simple = 1;
    return (PyObject *)op;
}

/* A static type: a Python subclass's own traverse and dealloc visit and release the subclass
 * (subtype_traverse, subtype_dealloc), so these do not. */
static int call_path_traverse(CallPath *op, visitproc visit, void *arg) {
    Py_VISIT(op->cache);
    Py_VISIT(op->tensor_positions);
    return 0;
}

static int call_path_clear(CallPath *op) {
    Py_CLEAR(op->cache);
    Py_CLEAR(op->tensor_positions);
    return 0;
}

static void call_path_dealloc(CallPath *op) {
    PyObject_GC_UnTrack(op);
    call_path_clear(op);
    Py_TYPE(op)->tp_free(op);
}

static PyObject *positions_get(CallPath *op, void *closure) {
    Py_INCREF(op->tensor_positions);
    return op->tensor_positions;
}

static int positions_set(CallPath *op, PyObject *value, void *closure) {
    if (value == NULL || !PyTuple_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "tensor_positions is a tuple of ints");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(value);
    Py_ssize_t parsed[MAX_POSITIONS];
    for (Py_ssize_t i = 0; i < n && i < MAX_POSITIONS; i++) {
        parsed[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(value, i));
        if (parsed[i] == -1 && PyErr_Occurred())
            return -1;
        if (parsed[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "tensor positions are not negative");
            return -1;
        }
    }
    Py_INCREF(value);
    Py_XSETREF(op->tensor_positions, value);
    op->num_positions = n > MAX_POSITIONS ? -1 : (int)n;
    for (Py_ssize_t i = 0; i < n && i < MAX_POSITIONS; i++)
        op->positions[i] = parsed[i];
    return 0;
}

static PyMemberDef call_path_members[] = {
    {"_cache", T_OBJECT, offsetof(CallPath, cache), 0, "key set -> kernel"},
    {"_simple", T_BOOL, offsetof(CallPath, simple), 0,
     "only plain Tensor arguments pick the key set"},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(CallPath, vectorcall), READONLY},
    {NULL},
};

static PyGetSetDef call_path_getset[] = {
    {"tensor_positions", (getter)positions_get, (setter)positions_set,
     "where the op's Tensor arguments are", NULL},
    {NULL},
};

static PyMethodDef call_path_methods[] = {
    {"redispatch", (PyCFunction)(void (*)(void))call_path_redispatch,
     METH_FASTCALL | METH_KEYWORDS,
     "redispatch(key, *args): call this op again with key and every key above it excluded on "
     "this thread."},
    {"call_with_keyset", (PyCFunction)(void (*)(void))call_path_call_with_keyset,
     METH_FASTCALL | METH_KEYWORDS,
     "call_with_keyset(keyset, *args): run the kernel keyset resolves to (no thread-local "
     "sets applied)."},
    {NULL},
};

static PyTypeObject CallPathType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "volta.dispatch.native._dispatch.CallPath",
    .tp_doc = "OperatorHandle's call path in C (Note [Compiled call path]).",
    .tp_basicsize = sizeof(CallPath),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC
                | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = call_path_new,
    .tp_dealloc = (destructor)call_path_dealloc,
    .tp_traverse = (traverseproc)call_path_traverse,
    .tp_clear = (inquiry)call_path_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(CallPath, vectorcall),
    .tp_members = call_path_members,
    .tp_getset = call_path_getset,
    .tp_methods = call_path_methods,
};

/* -- checked op functions ------------------------------------------------------------------------
 * binding.checked's wrapper (a generated op function or method whose call does not fit its
 * schema raises ArgumentError) without its Python frame: the call goes straight to the
 * function, and only when that raises TypeError, AttributeError or ValueError does the wrapper
 * ask its Python ``on_error(error, binding_candidate, args, kwargs)`` for the exception to raise
 * instead (None: the error stands). ``binding_candidate``: the error has no traceback, so it was
 * raised while Python bound the call to the function, before its frame ran. */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *fn;
    PyObject *on_error;
    PyObject *dict;
    PyObject *weakrefs;
} Checked;

static PyObject *checked_failed(Checked *self, PyObject *const *args, size_t nargsf,
                                PyObject *kwnames) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_AttributeError)
            && !PyErr_ExceptionMatches(PyExc_ValueError))
        return NULL;
    PyObject *type, *error, *traceback;
    PyErr_Fetch(&type, &error, &traceback);
    PyErr_NormalizeException(&type, &error, &traceback);
    if (traceback != NULL)
        PyException_SetTraceback(error, traceback);
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *positional = PyTuple_New(nargs), *keywords = PyDict_New(), *replacement = NULL;
    if (positional && keywords) {
        for (Py_ssize_t i = 0; i < nargs; i++)
            PyTuple_SET_ITEM(positional, i, Py_NewRef(args[i]));
        int failed = 0;
        for (Py_ssize_t i = 0; i < nkw && !failed; i++)
            failed = PyDict_SetItem(keywords, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0;
        if (!failed)
            replacement = PyObject_CallFunctionObjArgs(
                self->on_error, error, traceback == NULL ? Py_True : Py_False, positional,
                keywords, NULL);
    }
    Py_XDECREF(positional);
    Py_XDECREF(keywords);
    if (replacement == NULL) {  /* raised while deciding: chained to the error, as in Python */
        PyObject *type2, *error2, *traceback2;
        PyErr_Fetch(&type2, &error2, &traceback2);
        PyErr_NormalizeException(&type2, &error2, &traceback2);
        if (error2 != NULL)
            PyException_SetContext(error2, error);
        else
            Py_DECREF(error);
        Py_XDECREF(type);
        Py_XDECREF(traceback);
        PyErr_Restore(type2, error2, traceback2);
        return NULL;
    }
    if (replacement == Py_None) {
        Py_DECREF(replacement);
        PyErr_Restore(type, error, traceback);
        return NULL;
    }
    /* ``raise replacement from None`` while handling the error */
    PyException_SetCause(replacement, NULL);
    PyException_SetContext(replacement, error);  /* steals error */
    Py_XDECREF(type);
    Py_XDECREF(traceback);
    PyObject *replacement_type = (PyObject *)Py_TYPE(replacement);
    Py_INCREF(replacement_type);
    PyErr_Restore(replacement_type, replacement, PyException_GetTraceback(replacement));
    return NULL;
}

static PyObject *checked_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                    PyObject *kwnames) {
    Checked *self = (Checked *)callable;
    PyObject *result = PyObject_Vectorcall(self->fn, args, nargsf, kwnames);
    if (result == NULL)
        return checked_failed(self, args, nargsf, kwnames);
    return result;
}

static PyObject *checked_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *fn, *on_error;
    if (!PyArg_ParseTuple(args, "OO:Checked", &fn, &on_error))
        return NULL;
    Checked *self = (Checked *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->vectorcall = checked_vectorcall;
    self->fn = Py_NewRef(fn);
    self->on_error = Py_NewRef(on_error);
    return (PyObject *)self;
}

static int checked_traverse(Checked *self, visitproc visit, void *arg) {
    Py_VISIT(self->fn);
    Py_VISIT(self->on_error);
    Py_VISIT(self->dict);
    return 0;
}

static int checked_clear(Checked *self) {
    Py_CLEAR(self->fn);
    Py_CLEAR(self->on_error);
    Py_CLEAR(self->dict);
    return 0;
}

static void checked_dealloc(Checked *self) {
    PyObject_GC_UnTrack(self);
    if (self->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    checked_clear(self);
    Py_TYPE(self)->tp_free(self);
}

/* a method on a class, as a function is */
static PyObject *checked_get(PyObject *self, PyObject *instance, PyObject *owner) {
    if (instance == NULL || instance == Py_None)
        return Py_NewRef(self);
    return PyMethod_New(self, instance);
}

static PyObject *checked_reduce(PyObject *self, PyObject *unused) {
    /* pickled by name, as the function it wraps was */
    return PyObject_GetAttrString(self, "__qualname__");
}

static PyObject *checked_repr(Checked *self) {
    return PyObject_Repr(self->fn);  /* it stands for the function, as functools.wraps's does */
}

static PyMemberDef checked_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Checked, vectorcall), READONLY},
    {"__dictoffset__", T_PYSSIZET, offsetof(Checked, dict), READONLY},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(Checked, weakrefs), READONLY},
    {NULL},
};

static PyGetSetDef checked_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL},
};

static PyMethodDef checked_methods[] = {
    {"__reduce__", checked_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyTypeObject CheckedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "volta.dispatch.native._dispatch.Checked",
    .tp_doc = "Checked(fn, on_error): binding.checked's wrapper in C.",
    .tp_basicsize = sizeof(Checked),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
                | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_new = checked_new,
    .tp_dealloc = (destructor)checked_dealloc,
    .tp_traverse = (traverseproc)checked_traverse,
    .tp_clear = (inquiry)checked_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Checked, vectorcall),
    .tp_dictoffset = offsetof(Checked, dict),
    .tp_weaklistoffset = offsetof(Checked, weakrefs),
    .tp_descr_get = checked_get,
    .tp_repr = (reprfunc)checked_repr,
    .tp_members = checked_members,
    .tp_getset = checked_getset,
    .tp_methods = checked_methods,
};

/* -- module functions ------------------------------------------------------------------------- */

static PyObject *set_tensor_type(PyObject *module, PyObject *type) {
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "set_tensor_type takes the Tensor type");
        return NULL;
    }
    /* the _ks slot's offset, from its member descriptor (Tensor's __slots__) */
    PyObject *descriptor = PyObject_GetAttrString(type, "_ks");
    if (descriptor == NULL)
        return NULL;
    Py_ssize_t offset = -1;
    if (Py_IS_TYPE(descriptor, &PyMemberDescr_Type)) {
        PyMemberDef *member = ((PyMemberDescrObject *)descriptor)->d_member;
        if (member->type == T_OBJECT_EX || member->type == T_OBJECT)
            offset = member->offset;
    }
    Py_DECREF(descriptor);
    Py_INCREF(type);
    Py_XSETREF(tensor_type, (PyTypeObject *)type);
    ks_offset = offset;  /* -1: not a slot, every call takes the Python path */
    Py_RETURN_NONE;
}

static PyObject *set_python_paths(PyObject *module, PyObject *args) {
    PyObject *call, *redispatch, *call_with_keyset;
    if (!PyArg_ParseTuple(args, "OOO", &call, &redispatch, &call_with_keyset))
        return NULL;
    Py_INCREF(call);
    Py_XSETREF(python_call, call);
    Py_INCREF(redispatch);
    Py_XSETREF(python_redispatch, redispatch);
    Py_INCREF(call_with_keyset);
    Py_XSETREF(python_call_with_keyset, call_with_keyset);
    Py_RETURN_NONE;
}

static PyObject *enable_vectorcall(PyObject *module, PyObject *type) {
    /* Python 3.12 lets a subclass that does not define __call__ inherit vectorcall; before it
     * a Python subclass is called through tp_call (a tuple per call). Same slot, same code. */
    if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &CallPathType)) {
        PyErr_SetString(PyExc_TypeError, "enable_vectorcall takes a subclass of CallPath");
        return NULL;
    }
    PyTypeObject *subclass = (PyTypeObject *)type;
    if (subclass->tp_call == CallPathType.tp_call
            && subclass->tp_vectorcall_offset == CallPathType.tp_vectorcall_offset)
        subclass->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_tensor_type", set_tensor_type, METH_O, "The Tensor type whose _ks slot is read."},
    {"set_python_paths", set_python_paths, METH_VARARGS,
     "The Python __call__, redispatch and call_with_keyset, for the calls C hands back."},
    {"enable_vectorcall", enable_vectorcall, METH_O,
     "Call a subclass of CallPath through vectorcall (as Python 3.12 does by itself)."},
    {NULL},
};

static struct PyModuleDef dispatch_module = {
    PyModuleDef_HEAD_INIT, "_dispatch",
    "The dispatcher's call path in C (Note [Compiled call path]).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__dispatch(void) {
    str_resolve_and_cache = PyUnicode_InternFromString("_resolve_and_cache");
    str_translated = PyUnicode_InternFromString("_translated");
    str_mask_and_above = PyUnicode_InternFromString("mask_and_above");
    if (!str_resolve_and_cache || !str_translated || !str_mask_and_above)
        return NULL;
    if (PyType_Ready(&LocalKeysType) < 0 || PyType_Ready(&CallPathType) < 0
            || PyType_Ready(&CheckedType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&dispatch_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&LocalKeysType);
    Py_INCREF(&CallPathType);
    Py_INCREF(&CheckedType);
    if (PyModule_AddObject(module, "LocalKeys", (PyObject *)&LocalKeysType) < 0
            || PyModule_AddObject(module, "CallPath", (PyObject *)&CallPathType) < 0
            || PyModule_AddObject(module, "Checked", (PyObject *)&CheckedType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
