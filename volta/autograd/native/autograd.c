/* What every differentiable op call does after its kernel, in C: connect_tensors, save and
 * set_history (volta/autograd/graph.py); and the engine's check of each node's gradients
 * (engine._fix_up_outputs).
 *
 * Note [Compiled autograd recording]
 * graph.py is the definition; these functions do the same for the common case and call the
 * Python function for everything else:
 * * connect_tensors: anomaly mode is off (a view whose base was written since its history
 *   was recorded gets its edge from the Python ``_edge``, as in Python);
 * * save: an exact-type or subclass Tensor, no saved-tensor hooks active;
 * * set_history: one exact Tensor output, no ``differentiable`` mask, not in place;
 * * fix_up_outputs: gradients that are Tensors, metadata that are (shape, dtype, device).
 * Tensor attributes that live in the instance dict or at class level (grad_fn, _base,
 * _requires_grad, _accumulator, _output_nr) are read with ordinary attribute look-ups; slots
 * (_shape, dtype, _device, _storage, _ks) by their offsets, found at setup.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

static PyTypeObject *tensor_type, *saved_type;
static PyObject *python_connect_tensors, *python_save, *python_set_history, *accumulator,
                *python_edge;
static PyObject *hooks_local, *anomaly_local, *sequence, *no_lists, *floating_dtypes;
static PyObject *autograd_mask, *zero;
static PyObject *s_grad_fn, *s_base, *s_requires_grad, *s_accumulator, *s_output_nr, *s_stack,
                *s_enabled, *s_next_edges, *s_input_meta, *s_layout, *s_needs_input_grad, *s_seq,
                *s_output_meta, *s_view_version;
static int ready;

static Py_ssize_t t_shape, t_dtype, t_device, t_storage, t_ks, st_version;
static Py_ssize_t sv_data, sv_version, sv_is_output, sv_output_nr;

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

/* whether a thread-local object's attribute is true (-1: error) */
static int flag(PyObject *holder, PyObject *name) {
    PyObject *value = PyObject_GetAttr(holder, name);
    if (value == NULL)
        return -1;
    int truth = PyObject_IsTrue(value);
    Py_DECREF(value);
    return truth;
}

/* (x._shape, x.dtype, x._device) */
static PyObject *meta_of(PyObject *x) {
    PyObject *shape = SLOT(x, t_shape), *dtype = SLOT(x, t_dtype), *device = SLOT(x, t_device);
    if (shape == NULL || dtype == NULL || device == NULL) {
        PyErr_SetString(PyExc_AttributeError, "a tensor without shape, dtype or device");
        return NULL;
    }
    return PyTuple_Pack(3, shape, dtype, device);
}

/* -- connect_tensors ---------------------------------------------------------------------------- */

static PyObject *connect_tensors(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready || nargs != 2 || !PyTuple_CheckExact(args[1]))
        return PyObject_Vectorcall(python_connect_tensors, args, nargs, NULL);
    PyObject *node = args[0], *inputs = args[1];
    Py_ssize_t n = PyTuple_GET_SIZE(inputs);
    int anomaly = flag(anomaly_local, s_enabled);
    if (anomaly < 0)
        return NULL;
    if (anomaly)
        return PyObject_Vectorcall(python_connect_tensors, args, nargs, NULL);
    PyObject *edges = PyList_New(n), *metas = PyList_New(n), *needs = PyTuple_New(n);
    PyObject *result = NULL;
    int connected = 0;
    if (edges == NULL || metas == NULL || needs == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(inputs, i);
        PyObject *edge = NULL;
        if (PyObject_TypeCheck(x, tensor_type)) {
            PyObject *fn = PyObject_GetAttr(x, s_grad_fn);
            if (fn == NULL)
                goto done;
            PyObject *base = PyObject_GetAttr(x, s_base);
            if (base == NULL) {
                Py_DECREF(fn);
                goto done;
            }
            Py_DECREF(base);
            int rebuild = 0;  /* a view whose base was written since: _edge rebuilds it */
            if (base != Py_None) {
                rebuild = fn == Py_None;
                if (!rebuild) {
                    PyObject *view_version = PyObject_GetAttr(x, s_view_version);
                    PyObject *storage = SLOT(x, t_storage);
                    PyObject *version = storage ? SLOT(storage, st_version) : NULL;
                    int same = view_version && version
                               ? PyObject_RichCompareBool(view_version, version, Py_EQ) : -1;
                    Py_XDECREF(view_version);
                    if (same < 0) {
                        if (!PyErr_Occurred())
                            PyErr_SetString(PyExc_AttributeError, "a view without a version");
                        Py_DECREF(fn);
                        goto done;
                    }
                    rebuild = !same;
                }
            }
            if (rebuild) {
                Py_DECREF(fn);
                edge = PyObject_CallOneArg(python_edge, x);
                if (edge == NULL)
                    goto done;
                if (edge == Py_None)
                    Py_CLEAR(edge);
            } else if (fn != Py_None) {
                PyObject *nr = PyObject_GetAttr(x, s_output_nr);
                if (nr == NULL) {
                    Py_DECREF(fn);
                    goto done;
                }
                edge = PyTuple_Pack(2, fn, nr);
                Py_DECREF(nr);
                Py_DECREF(fn);
                if (edge == NULL)
                    goto done;
            } else {
                Py_DECREF(fn);
                int requires = flag(x, s_requires_grad);
                if (requires < 0)
                    goto done;
                if (requires) {  /* a leaf: accumulator(x)'s look-up, inlined */
                    PyObject *acc = PyObject_GetAttr(x, s_accumulator);
                    if (acc == NULL)
                        goto done;
                    if (acc == Py_None) {
                        Py_DECREF(acc);
                        if ((acc = PyObject_CallOneArg(accumulator, x)) == NULL)
                            goto done;
                    }
                    edge = PyTuple_Pack(2, acc, zero);
                    Py_DECREF(acc);
                    if (edge == NULL)
                        goto done;
                }
            }
        }
        if (edge == NULL) {
            PyList_SET_ITEM(edges, i, Py_NewRef(Py_None));
            PyList_SET_ITEM(metas, i, Py_NewRef(Py_None));
            PyTuple_SET_ITEM(needs, i, Py_NewRef(Py_False));
        } else {
            PyObject *meta = meta_of(x);
            if (meta == NULL) {
                Py_DECREF(edge);
                goto done;
            }
            PyList_SET_ITEM(edges, i, edge);
            PyList_SET_ITEM(metas, i, meta);
            PyTuple_SET_ITEM(needs, i, Py_NewRef(Py_True));
            connected = 1;
        }
    }
    if (!connected) {
        result = Py_NewRef(Py_False);
        goto done;
    }
    PyObject *count = PyLong_FromSsize_t(n);
    if (count == NULL)
        goto done;
    PyObject *layout = PyDict_GetItemWithError(no_lists, count);  /* (None,) * n, shared */
    if (layout != NULL)
        Py_INCREF(layout);
    else if (!PyErr_Occurred() && (layout = PyTuple_New(n)) != NULL) {
        for (Py_ssize_t i = 0; i < n; i++)
            PyTuple_SET_ITEM(layout, i, Py_NewRef(Py_None));
        if (PyDict_SetItem(no_lists, count, layout) < 0)
            Py_CLEAR(layout);
    }
    Py_DECREF(count);
    if (layout == NULL)
        goto done;
    PyObject *seq = PyIter_Next(sequence);
    if (seq == NULL) {
        Py_DECREF(layout);
        goto done;
    }
    int failed = PyObject_SetAttr(node, s_next_edges, edges) < 0
                 || PyObject_SetAttr(node, s_input_meta, metas) < 0
                 || PyObject_SetAttr(node, s_layout, layout) < 0
                 || PyObject_SetAttr(node, s_needs_input_grad, needs) < 0
                 || PyObject_SetAttr(node, s_seq, seq) < 0;
    Py_DECREF(layout);
    Py_DECREF(seq);
    if (!failed)
        result = Py_NewRef(Py_True);
done:
    Py_XDECREF(edges);
    Py_XDECREF(metas);
    Py_XDECREF(needs);
    return result;
}

/* -- save --------------------------------------------------------------------------------------- */

static PyObject *save(PyObject *module, PyObject *t) {
    if (!ready || !PyObject_TypeCheck(t, tensor_type))
        return PyObject_CallOneArg(python_save, t);
    PyObject *stack = PyObject_GetAttr(hooks_local, s_stack);
    if (stack == NULL)
        return NULL;
    int hooked = PyObject_IsTrue(stack);
    Py_DECREF(stack);
    if (hooked)  /* also -1: Python raises it again */
        return PyObject_CallOneArg(python_save, t);
    PyObject *storage = SLOT(t, t_storage);
    PyObject *version = storage ? SLOT(storage, st_version) : NULL;
    if (version == NULL)
        return PyObject_CallOneArg(python_save, t);
    PyObject *saved = saved_type->tp_alloc(saved_type, 0);
    if (saved == NULL)
        return NULL;
    SLOT(saved, sv_version) = Py_NewRef(version);
    SLOT(saved, sv_is_output) = Py_NewRef(Py_False);
    SLOT(saved, sv_output_nr) = Py_NewRef(zero);
    SLOT(saved, sv_data) = Py_NewRef(t);
    return saved;
}

/* -- set_history -------------------------------------------------------------------------------- */

static PyObject *set_history(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready || nargs < 2 || nargs > 3 || Py_TYPE(args[1]) != tensor_type
            || (nargs == 3 && args[2] != Py_None))
        return PyObject_Vectorcall(python_set_history, args, nargs, NULL);
    PyObject *node = args[0], *result = args[1];
    PyObject *meta = meta_of(result);
    if (meta == NULL)
        return NULL;
    PyObject *output_meta = PyTuple_Pack(1, meta);
    Py_DECREF(meta);
    if (output_meta == NULL)
        return NULL;
    int failed = PyObject_SetAttr(node, s_output_meta, output_meta) < 0;
    Py_DECREF(output_meta);
    if (failed)
        return NULL;
    int floating = PySet_Contains(floating_dtypes, SLOT(result, t_dtype));
    if (floating < 0)
        return NULL;
    if (floating) {
        PyObject *ks = SLOT(result, t_ks);
        PyObject *marked = ks ? PyNumber_Or(ks, autograd_mask) : NULL;
        if (marked == NULL)
            return NULL;
        if (PyObject_SetAttr(result, s_grad_fn, node) < 0
                || PyObject_SetAttr(result, s_requires_grad, Py_True) < 0) {
            Py_DECREF(marked);
            return NULL;
        }
        Py_XSETREF(SLOT(result, t_ks), marked);
    }
    Py_RETURN_NONE;
}

/* -- the engine's output check ------------------------------------------------------------------- */

static PyObject *python_fix_up_outputs, *python_validate;

/* fix_up_outputs(node, outputs): engine._fix_up_outputs (outputs[i] = _validate(node, i, g)
 * where a gradient's shape, dtype or device differ from its input's) */
static PyObject *fix_up_outputs(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready || python_validate == NULL || nargs != 2 || !PyList_CheckExact(args[1]))
        return PyObject_Vectorcall(python_fix_up_outputs, args, nargs, NULL);
    PyObject *node = args[0], *outputs = args[1];
    PyObject *metas = PyObject_GetAttr(node, s_input_meta);
    if (metas == NULL)
        return NULL;
    PyObject *result = NULL;
    if (!PyList_CheckExact(metas) && !PyTuple_CheckExact(metas)) {
        result = PyObject_Vectorcall(python_fix_up_outputs, args, nargs, NULL);
        goto done;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(metas);
    for (Py_ssize_t i = 0; i < n && i < PyList_GET_SIZE(outputs); i++) {
        PyObject *g = PyList_GET_ITEM(outputs, i);
        PyObject *meta = PySequence_Fast_GET_ITEM(metas, i);
        if (g == Py_None || meta == Py_None)
            continue;
        if (!PyObject_TypeCheck(g, tensor_type) || !PyTuple_CheckExact(meta)
                || PyTuple_GET_SIZE(meta) != 3) {
            /* what Python reads differently: let it do the whole list (entries already
             * fixed pass its check unchanged) */
            result = PyObject_Vectorcall(python_fix_up_outputs, args, nargs, NULL);
            goto done;
        }
        PyObject *shape = SLOT(g, t_shape), *device = SLOT(g, t_device);
        PyObject *want_shape = PyTuple_GET_ITEM(meta, 0), *want_device = PyTuple_GET_ITEM(meta, 2);
        int differs = SLOT(g, t_dtype) != PyTuple_GET_ITEM(meta, 1);
        if (!differs && shape != want_shape) {
            int same = shape ? PyObject_RichCompareBool(shape, want_shape, Py_EQ) : 0;
            if (same < 0)
                goto done;
            differs = !same;
        }
        if (!differs && device != want_device) {
            int same = device ? PyObject_RichCompareBool(device, want_device, Py_EQ) : 0;
            if (same < 0)
                goto done;
            differs = !same;
        }
        if (differs) {
            PyObject *index = PyLong_FromSsize_t(i);
            if (index == NULL)
                goto done;
            PyObject *call[3] = {node, index, g};
            PyObject *fixed = PyObject_Vectorcall(python_validate, call, 3, NULL);
            Py_DECREF(index);
            if (fixed == NULL || PyList_SetItem(outputs, i, fixed) < 0)
                goto done;
        }
    }
    result = Py_NewRef(Py_None);
done:
    Py_DECREF(metas);
    return result;
}

static PyObject *setup_engine(PyObject *module, PyObject *args) {
    PyObject *fix_up, *validate;
    if (!PyArg_ParseTuple(args, "OO", &fix_up, &validate))
        return NULL;
    Py_INCREF(fix_up);
    Py_XSETREF(python_fix_up_outputs, fix_up);
    Py_INCREF(validate);
    Py_XSETREF(python_validate, validate);
    Py_RETURN_NONE;
}

/* -- setup -------------------------------------------------------------------------------------- */

#define KEEP(target, value) do { Py_INCREF(value); Py_XSETREF(target, value); } while (0)

static PyObject *setup(PyObject *module, PyObject *args) {
    PyObject *tensor, *storage, *saved, *connect, *save_fn, *history, *acc, *edge, *hooks,
             *anomaly, *seq, *layouts, *floats, *mask;
    if (!PyArg_ParseTuple(args, "O!O!O!OOOOOOOOO!O!O", &PyType_Type, &tensor, &PyType_Type,
                          &storage, &PyType_Type, &saved, &connect, &save_fn, &history, &acc,
                          &edge, &hooks, &anomaly, &seq, &PyDict_Type, &layouts, &PyFrozenSet_Type,
                          &floats, &mask))
        return NULL;
    ready = 0;
    if (slot_offset(tensor, "_shape", &t_shape) || slot_offset(tensor, "dtype", &t_dtype)
            || slot_offset(tensor, "_device", &t_device)
            || slot_offset(tensor, "_storage", &t_storage) || slot_offset(tensor, "_ks", &t_ks)
            || slot_offset(storage, "version", &st_version)
            || slot_offset(saved, "data", &sv_data) || slot_offset(saved, "version", &sv_version)
            || slot_offset(saved, "is_output", &sv_is_output)
            || slot_offset(saved, "output_nr", &sv_output_nr))
        return NULL;
    KEEP(tensor_type, (PyTypeObject *)tensor);
    KEEP(saved_type, (PyTypeObject *)saved);
    KEEP(python_connect_tensors, connect);
    KEEP(python_save, save_fn);
    KEEP(python_set_history, history);
    KEEP(accumulator, acc);
    KEEP(python_edge, edge);
    KEEP(hooks_local, hooks);
    KEEP(anomaly_local, anomaly);
    KEEP(sequence, seq);
    KEEP(no_lists, layouts);
    KEEP(floating_dtypes, floats);
    KEEP(autograd_mask, mask);
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"setup", setup, METH_VARARGS,
     "setup(Tensor, Storage, SavedTensor, connect_tensors, save, set_history, accumulator, _edge, "
     "SAVED_TENSOR_HOOKS, ANOMALY, the node sequence, _NO_LISTS, floating dtypes, Autograd's "
     "mask): the types, Python functions and state the C functions work with."},
    {"setup_engine", setup_engine, METH_VARARGS,
     "setup_engine(_fix_up_outputs, _validate): the engine's Python functions."},
    {"fix_up_outputs", (PyCFunction)(void (*)(void))fix_up_outputs, METH_FASTCALL,
     "engine._fix_up_outputs (Note [Compiled autograd recording])."},
    {"connect_tensors", (PyCFunction)(void (*)(void))connect_tensors, METH_FASTCALL,
     "graph.connect_tensors (Note [Compiled autograd recording])."},
    {"save", save, METH_O, "graph.save (Note [Compiled autograd recording])."},
    {"set_history", (PyCFunction)(void (*)(void))set_history, METH_FASTCALL,
     "graph.set_history (Note [Compiled autograd recording])."},
    {NULL},
};

static struct PyModuleDef autograd_module = {
    PyModuleDef_HEAD_INIT, "_autograd",
    "Autograd's recording in C (Note [Compiled autograd recording]).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__autograd(void) {
    if ((zero = PyLong_FromLong(0)) == NULL)
        return NULL;
#define INTERN(var, text) if ((var = PyUnicode_InternFromString(text)) == NULL) return NULL
    INTERN(s_grad_fn, "grad_fn");
    INTERN(s_base, "_base");
    INTERN(s_requires_grad, "_requires_grad");
    INTERN(s_accumulator, "_accumulator");
    INTERN(s_output_nr, "_output_nr");
    INTERN(s_stack, "stack");
    INTERN(s_enabled, "enabled");
    INTERN(s_next_edges, "next_edges");
    INTERN(s_input_meta, "input_meta");
    INTERN(s_layout, "layout");
    INTERN(s_needs_input_grad, "needs_input_grad");
    INTERN(s_seq, "seq");
    INTERN(s_output_meta, "output_meta");
    INTERN(s_view_version, "_view_version");
    return PyModule_Create(&autograd_module);
}
