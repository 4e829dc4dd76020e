"""Where volta still differs from PyTorch, as the differential fuzz (``tests/fuzz``) finds it.

Keyed by ``(op, kind)`` as ``python -m tests.fuzz.run`` reports them (kinds: ``volta_accepts``,
``volta_rejects``, ``raw:<Exception>``, ``dtype``, ``value``, ``shape``, ``input_modified``);
each entry says why. The fuzz test fails on a disagreement that is not listed and, at the CI
budget, on a listed entry its run no longer sees, so fixing a difference means deleting its line.
"""

from __future__ import annotations

KNOWN: dict[tuple[str, str], str] = {
    ('bincount', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "bincount_cpu" not implemented for \'Bool\'',
    ('clip', 'volta_rejects'): 'not fixed yet; ArgumentError: clip(): argument \'max\' (position 3) must be Tensor, not int',
    ('ldexp', 'value'): 'PyTorch\'s float64 ldexp with a bfloat16 exponent rounds through bfloat16 (its 0-d and 1-d results disagree with each other); volta keeps float64',
    ('matrix_power', 'volta_accepts'): 'not fixed yet; torch ValueError: Overflow when unpacking long long',
    ('prod', 'volta_accepts'): 'not fixed yet; torch TypeError: prod(): argument \'dim\' must be int, not NoneType',
    ('sort', 'volta_accepts'): 'not fixed yet; torch TypeError: sort() received an invalid combination of arguments - got (Tensor, int, stable=bool), but expected one of:',
    ('subtract', 'volta_rejects'): 'not fixed yet; NoKernelError: subtract: no tensor argument to pick a backend from (key set {}); pass at least one tensor',
}
