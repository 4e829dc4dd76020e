/* Copies and picks of any element size (Note [native kernel contract]):
 * - copy / copy_parts: strided copies, for contiguous() of a permuted, transposed or expanded
 *   view, copy_, and cat's parts written into their slices of the result;
 * - take_rows / gather_rows: rows picked by an index along dim 0 (index_select, embedding) and
 *   items picked along the last dim of a matrix (gather), and their backwards index_add_rows /
 *   scatter_add_rows (float32/float64, summed in a fixed order on any number of threads);
 * - mask_select / mask_add: x[mask] and its backward.
 *
 * Unlike the other kernels, copy and copy_parts take strided numpy views (the buffer
 * protocol's strided form, which numpy fills with its own shape and strides, so every address
 * is inside the arrays). The dims are first merged where both arrays step through them as one,
 * so most copies become a loop over rows of one memcpy each, or over tiles of a transpose.
 */
#include "common.h"

#define MAX_DIMS 16

typedef struct {
    int ndim;                          /* after merging; the last dim is the inner loop */
    Py_ssize_t shape[MAX_DIMS];
    Py_ssize_t src_stride[MAX_DIMS];   /* bytes */
    Py_ssize_t dst_stride[MAX_DIMS];   /* bytes */
    const char *src;
    char *dst;
    Py_ssize_t itemsize;
    /* a transposed pair: the inner loop reads the source across rows; the copy goes in tiles of
     * `tile` x `tile` over (dim ndim - 2, dim ndim - 1) so that the lines it reads stay cached */
    int tiled;
    Py_ssize_t unit_rows; /* tiled: rows of dim ndim - 2 per unit of work */
    Py_ssize_t piece, pieces; /* untiled: items per unit of work, units per row */
} copy_plan;

/* Copies `n` elements, one per stride, of `itemsize` bytes. */
static inline void copy_elements(char *dst, Py_ssize_t ds, const char *src, Py_ssize_t ss,
                                 Py_ssize_t n, Py_ssize_t itemsize) {
    if (ds == itemsize && ss == itemsize) {
        memcpy(dst, src, (size_t)(n * itemsize));
        return;
    }
    if (ss == 0 && ds == itemsize) {
        /* a broadcast row (expand's stride 0) into contiguous memory: one value repeated, a
         * loop the compiler turns into vector stores (the generic loop below does not
         * vectorise with run-time strides: 7x slower than numpy's broadcast copy) */
        switch (itemsize) {
        case 1:
            memset(dst, src[0], (size_t)n);
            return;
        case 2: {
            uint16_t v, *d = (uint16_t *)dst;
            memcpy(&v, src, 2);
            for (Py_ssize_t i = 0; i < n; i++) d[i] = v;
            return;
        }
        case 4: {
            uint32_t v, *d = (uint32_t *)dst;
            memcpy(&v, src, 4);
            for (Py_ssize_t i = 0; i < n; i++) d[i] = v;
            return;
        }
        case 8: {
            uint64_t v, *d = (uint64_t *)dst;
            memcpy(&v, src, 8);
            for (Py_ssize_t i = 0; i < n; i++) d[i] = v;
            return;
        }
        default:
            break;
        }
    }
    switch (itemsize) {
    case 1:
        for (Py_ssize_t i = 0; i < n; i++) dst[i * ds] = src[i * ss];
        break;
    case 2:
        for (Py_ssize_t i = 0; i < n; i++)
            *(uint16_t *)(dst + i * ds) = *(const uint16_t *)(src + i * ss);
        break;
    case 4:
        for (Py_ssize_t i = 0; i < n; i++)
            *(uint32_t *)(dst + i * ds) = *(const uint32_t *)(src + i * ss);
        break;
    case 8:
        for (Py_ssize_t i = 0; i < n; i++)
            *(uint64_t *)(dst + i * ds) = *(const uint64_t *)(src + i * ss);
        break;
    default:
        for (Py_ssize_t i = 0; i < n; i++)
            memcpy(dst + i * ds, src + i * ss, (size_t)itemsize);
    }
}

#define TILE 32
#define UNIT_ITEMS 16384

static inline void outer_offsets(const copy_plan *p, int outer, Py_ssize_t row, const char **src,
                                 char **dst) {
    const char *s = p->src;
    char *d = p->dst;
    for (int k = outer - 1; k >= 0; k--) {
        Py_ssize_t i = row % p->shape[k];
        row /= p->shape[k];
        s += i * p->src_stride[k];
        d += i * p->dst_stride[k];
    }
    *src = s;
    *dst = d;
}

/* Untiled: units [begin, end), a unit being a piece of a row of the last dim (the row's
 * `pieces` pieces, of `piece` items, cut long rows into shares for the threads), the rows
 * indexed by the outer dims (all but the last). */
static void copy_rows(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const copy_plan *p = ctx;
    int outer = p->ndim - 1;
    Py_ssize_t pieces = p->pieces, piece = p->piece, item = p->itemsize;
    Py_ssize_t row = begin / pieces, part = begin % pieces;
    Py_ssize_t index[MAX_DIMS];
    const char *src;
    char *dst;
    outer_offsets(p, outer, row, &src, &dst);
    for (int d = outer - 1; d >= 0; d--) {
        index[d] = row % p->shape[d];
        row /= p->shape[d];
    }
    Py_ssize_t n = p->shape[outer];
    Py_ssize_t ss = p->src_stride[outer], ds = p->dst_stride[outer];
    for (Py_ssize_t unit = begin; unit < end; unit++) {
        Py_ssize_t start = part * piece, len = n - start < piece ? n - start : piece;
        copy_elements(dst + start * ds, ds, src + start * ss, ss, len, item);
        if (++part < pieces) continue;
        part = 0;
        for (int d = outer - 1; d >= 0; d--) { /* the odometer: next row */
            src += p->src_stride[d];
            dst += p->dst_stride[d];
            if (++index[d] < p->shape[d]) break;
            src -= index[d] * p->src_stride[d];
            dst -= index[d] * p->dst_stride[d];
            index[d] = 0;
        }
    }
}

/* 8 x 8 blocks of 4-byte items and 4 x 4 blocks of 8-byte ones, transposed in vector registers
 * (GCC's vector extensions: AVX2/AVX-512 shuffles in the clones, SSE pairs in the baseline):
 * row k of the block is src + k * ss (items contiguous), written as column k of dst. */
typedef uint32_t v8u32 __attribute__((vector_size(32)));
typedef uint64_t v4u64 __attribute__((vector_size(32)));

static inline __attribute__((always_inline)) void transpose_8x8_u32(const char *src, Py_ssize_t ss, char *dst, Py_ssize_t ds) {
    v8u32 r[8], t[8], u[8];
    for (int k = 0; k < 8; k++) memcpy(&r[k], src + k * ss, 32);
    const v8u32 lo = {0, 8, 1, 9, 4, 12, 5, 13}, hi = {2, 10, 3, 11, 6, 14, 7, 15};
    const v8u32 even = {0, 1, 8, 9, 4, 5, 12, 13}, odd = {2, 3, 10, 11, 6, 7, 14, 15};
    const v8u32 first = {0, 1, 2, 3, 8, 9, 10, 11}, second = {4, 5, 6, 7, 12, 13, 14, 15};
    for (int k = 0; k < 8; k += 2) {
        t[k] = __builtin_shuffle(r[k], r[k + 1], lo);
        t[k + 1] = __builtin_shuffle(r[k], r[k + 1], hi);
    }
    for (int k = 0; k < 8; k += 4) {
        u[k] = __builtin_shuffle(t[k], t[k + 2], even);
        u[k + 1] = __builtin_shuffle(t[k], t[k + 2], odd);
        u[k + 2] = __builtin_shuffle(t[k + 1], t[k + 3], even);
        u[k + 3] = __builtin_shuffle(t[k + 1], t[k + 3], odd);
    }
    for (int k = 0; k < 4; k++) {
        v8u32 low = __builtin_shuffle(u[k], u[k + 4], first);
        v8u32 high = __builtin_shuffle(u[k], u[k + 4], second);
        memcpy(dst + k * ds, &low, 32);
        memcpy(dst + (k + 4) * ds, &high, 32);
    }
}

static inline __attribute__((always_inline)) void transpose_4x4_u64(const char *src, Py_ssize_t ss, char *dst, Py_ssize_t ds) {
    v4u64 r[4];
    for (int k = 0; k < 4; k++) memcpy(&r[k], src + k * ss, 32);
    const v4u64 lo = {0, 4, 2, 6}, hi = {1, 5, 3, 7}, first = {0, 1, 4, 5}, second = {2, 3, 6, 7};
    v4u64 t0 = __builtin_shuffle(r[0], r[1], lo), t1 = __builtin_shuffle(r[0], r[1], hi);
    v4u64 t2 = __builtin_shuffle(r[2], r[3], lo), t3 = __builtin_shuffle(r[2], r[3], hi);
    v4u64 o[4] = {__builtin_shuffle(t0, t2, first), __builtin_shuffle(t1, t3, first),
                  __builtin_shuffle(t0, t2, second), __builtin_shuffle(t1, t3, second)};
    for (int k = 0; k < 4; k++) memcpy(dst + k * ds, &o[k], 32);
}

/* Tiled: units [begin, end), a unit being unit_rows rows of dim ndim - 2 (at one index of the
 * dims before). dst[i, j] = src[i, j] where src steps by one item along i and dst along j: blocks
 * of B x B go through the register transposes, the edges item by item. */
VOLTA_VECTOR static void copy_tiles(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const copy_plan *p = ctx;
    int outer = p->ndim - 2;
    Py_ssize_t m = p->shape[outer], n = p->shape[outer + 1], item = p->itemsize;
    Py_ssize_t ss2 = p->src_stride[outer], ds2 = p->dst_stride[outer];
    Py_ssize_t ss = p->src_stride[outer + 1], ds = p->dst_stride[outer + 1];
    Py_ssize_t rows = p->unit_rows, blocks = (m + rows - 1) / rows;
    Py_ssize_t block = ds != item ? 0 : item == 4 ? 8 : item == 8 ? 4 : 0; /* 0: no registers */
    for (Py_ssize_t unit = begin; unit < end; unit++) {
        const char *src;
        char *dst;
        outer_offsets(p, outer, unit / blocks, &src, &dst);
        Py_ssize_t i0 = unit % blocks * rows;
        Py_ssize_t i1 = i0 + rows < m ? i0 + rows : m;
        Py_ssize_t j_blocked = block ? n - n % block : 0;
        Py_ssize_t i_blocked = block ? i0 + (i1 - i0) - (i1 - i0) % block : i0;
        for (Py_ssize_t j = 0; j < j_blocked; j += block) {
            for (Py_ssize_t i = i0; i < i_blocked; i += block) {
                const char *s = src + i * ss2 + j * ss;
                char *d = dst + i * ds2 + j * ds;
                if (block == 8)
                    transpose_8x8_u32(s, ss, d, ds2);
                else
                    transpose_4x4_u64(s, ss, d, ds2);
            }
            for (Py_ssize_t i = i_blocked; i < i1; i++) /* the rows left over */
                copy_elements(dst + i * ds2 + j * ds, ds, src + i * ss2 + j * ss, ss, block,
                              item);
        }
        for (Py_ssize_t j0 = j_blocked; j0 < n; j0 += TILE) { /* the columns left over */
            Py_ssize_t len = j0 + TILE < n ? TILE : n - j0;
            for (Py_ssize_t i = i0; i < i1; i++)
                copy_elements(dst + i * ds2 + j0 * ds, ds, src + i * ss2 + j0 * ss, ss, len,
                              item);
        }
    }
}

/* Merges dims of `view`-shaped copies into the plan: size-1 dims go, and a dim folds into the
 * next one where both arrays step over it as one longer dim. Returns the element count. */
static Py_ssize_t make_plan(const Py_buffer *src, const Py_buffer *dst, copy_plan *p) {
    Py_ssize_t count = 1;
    p->ndim = 0;
    for (int d = 0; d < src->ndim; d++) {
        Py_ssize_t size = src->shape[d];
        count *= size;
        if (size == 1) continue;
        int k = p->ndim;
        if (k > 0 && p->src_stride[k - 1] == size * src->strides[d] &&
            p->dst_stride[k - 1] == size * dst->strides[d]) {
            p->shape[k - 1] *= size;
            p->src_stride[k - 1] = src->strides[d];
            p->dst_stride[k - 1] = dst->strides[d];
            continue;
        }
        p->shape[k] = size;
        p->src_stride[k] = src->strides[d];
        p->dst_stride[k] = dst->strides[d];
        p->ndim++;
    }
    if (p->ndim == 0) { /* one element */
        p->ndim = 1;
        p->shape[0] = 1;
        p->src_stride[0] = p->dst_stride[0] = p->itemsize;
    }
    return count;
}

/* Bytes per thread below which one thread is faster (~10 us of copying). */
#define GRAIN_BYTES (64 * 1024)

/* The plan of dst[...] = src (two buffers of one shape and item size), its units of work and
 * their item count (*units 0: nothing to copy). Returns 0, or -1 with an error set. */
static int plan_copy(const Py_buffer *src, const Py_buffer *dst, copy_plan *plan,
                     Py_ssize_t *units, Py_ssize_t *unit_items) {
    int same = src->ndim == dst->ndim && src->itemsize == dst->itemsize && src->ndim <= MAX_DIMS;
    for (int d = 0; same && d < src->ndim; d++) same = src->shape[d] == dst->shape[d];
    if (!same) {
        PyErr_SetString(PyExc_ValueError, "copy: two arrays of one shape and item size");
        return -1;
    }
    plan->itemsize = src->itemsize;
    plan->src = src->buf;
    plan->dst = dst->buf;
    Py_ssize_t count = make_plan(src, dst, plan);
    int last = plan->ndim - 1;
    Py_ssize_t item = plan->itemsize;
    /* tile when the inner loop reads across rows but the dim before it reads along them (a
     * stride-0 inner loop, expand's broadcast, reads one item: rows of one value, untiled) */
    plan->tiled = plan->ndim >= 2 && plan->src_stride[last] != item &&
                  plan->src_stride[last] != 0 &&
                  plan->src_stride[last - 1] == item && plan->shape[last] >= TILE &&
                  plan->shape[last - 1] >= TILE;
    *units = 0;
    *unit_items = 1;
    if (count == 0) return 0;
    /* the unit of work: a piece of a row, or unit_rows rows of the dim before the last, about
     * UNIT_ITEMS items: the source is read as unit_rows-item runs of each of the last dim's
     * rows, long enough for the prefetcher, the whole unit staying in L2 */
    Py_ssize_t n = plan->shape[last];
    if (plan->tiled) {
        Py_ssize_t m = plan->shape[last - 1];
        Py_ssize_t rows = (UNIT_ITEMS / n) & ~(Py_ssize_t)7;
        plan->unit_rows = rows < TILE ? TILE : rows > m ? m : rows;
        *unit_items = n * plan->unit_rows;
        *units = count / (n * m) * ((m + plan->unit_rows - 1) / plan->unit_rows);
    } else {
        plan->piece = n * item > GRAIN_BYTES ? GRAIN_BYTES / item : n;
        plan->pieces = (n + plan->piece - 1) / plan->piece;
        *unit_items = plan->piece;
        *units = count / n * plan->pieces;
    }
    return 0;
}

static void run_plan(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const copy_plan *plan = ctx;
    (plan->tiled ? copy_tiles : copy_rows)(ctx, begin, end);
}

/* copy(src, dst, threads): dst[...] = src for two numpy arrays of one shape and item size
 * (any strides; dst must not overlap src). */
static PyObject *copy(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("copy", nargs, 3);
    int threads = (int)volta_arg_long(args[2]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    Py_buffer src, dst;
    if (PyObject_GetBuffer(args[0], &src, PyBUF_STRIDES) < 0) return NULL;
    if (PyObject_GetBuffer(args[1], &dst, PyBUF_STRIDES | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&src);
        return NULL;
    }
    copy_plan plan;
    Py_ssize_t units, unit_items;
    int status = plan_copy(&src, &dst, &plan, &units, &unit_items);
    if (status == 0 && units > 0) {
        Py_ssize_t grain = GRAIN_BYTES / (unit_items * plan.itemsize) + 1;
        Py_BEGIN_ALLOW_THREADS
        volta_parallel_items(units, grain, threads, run_plan, &plan);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&src);
    PyBuffer_Release(&dst);
    if (status < 0) return NULL;
    Py_RETURN_NONE;
}

#define MAX_PARTS 16

typedef struct {
    int count;
    copy_plan plans[MAX_PARTS];
    Py_ssize_t units[MAX_PARTS], bytes; /* units of work per part; all parts' bytes */
} parts_plan;

/* Share `share` of `shares` of every part: the threads take row bands of all the parts
 * (each thread a band of each part: measured faster than whole parts per thread, which
 * leaves the threads writing different columns of the same rows). */
static void run_parts_share(const parts_plan *parts, Py_ssize_t share, Py_ssize_t shares) {
    for (int p = 0; p < parts->count; p++) {
        Py_ssize_t units = parts->units[p];
        Py_ssize_t begin = units * share / shares, end = units * (share + 1) / shares;
        if (end > begin) run_plan((void *)&parts->plans[p], begin, end);
    }
}

/* copy_parts(sources, dests, threads): dests[i][...] = sources[i] for up to 16 pairs (cat's
 * parts into their slices of the result), all in one parallel region. */
static PyObject *copy_parts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("copy_parts", nargs, 3);
    int threads = (int)volta_arg_long(args[2]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    if (!PyTuple_Check(args[0]) || !PyTuple_Check(args[1]) ||
        PyTuple_GET_SIZE(args[0]) != PyTuple_GET_SIZE(args[1]) ||
        PyTuple_GET_SIZE(args[0]) > MAX_PARTS) {
        PyErr_SetString(PyExc_ValueError, "copy_parts: two tuples of up to 16 arrays");
        return NULL;
    }
    parts_plan *parts = PyMem_Malloc(sizeof(parts_plan));
    Py_buffer buffers[2 * MAX_PARTS];
    if (parts == NULL) return PyErr_NoMemory();
    int held = 0, status = 0;
    parts->count = (int)PyTuple_GET_SIZE(args[0]);
    parts->bytes = 0;
    for (int p = 0; p < parts->count && status == 0; p++) {
        Py_buffer *src = &buffers[held], *dst = &buffers[held + 1];
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(args[0], p), src, PyBUF_STRIDES) < 0) {
            status = -1;
            break;
        }
        held++;
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(args[1], p), dst,
                               PyBUF_STRIDES | PyBUF_WRITABLE) < 0) {
            status = -1;
            break;
        }
        held++;
        Py_ssize_t unit_items;
        status = plan_copy(src, dst, &parts->plans[p], &parts->units[p], &unit_items);
        parts->bytes += parts->units[p] * unit_items * src->itemsize;
    }
    if (status == 0) {
        Py_ssize_t shares = parts->bytes / GRAIN_BYTES;
        if (shares > threads) shares = threads;
        Py_BEGIN_ALLOW_THREADS
#ifdef _OPENMP
        if (shares > 1) {
#pragma omp parallel num_threads((int)shares)
            run_parts_share(parts, omp_get_thread_num(), omp_get_num_threads());
        } else
#endif
            run_parts_share(parts, 0, 1);
        Py_END_ALLOW_THREADS
    }
    for (int b = 0; b < held; b++) PyBuffer_Release(&buffers[b]);
    PyMem_Free(parts);
    if (status < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- rows and elements picked by an index ---------------------------------------------- */

/* Note [checked indices]
 * The index kernels read int64 indices that the caller has not checked: each index is tested
 * against its dim before it is used, and a kernel that meets one out of range (negative ones
 * included) returns False having written only into its own output. The caller then takes its
 * numpy path, which wraps negative indices where the op allows them and raises PyTorch's error
 * for the others. */

typedef struct {
    const char *src;
    const int64_t *index;
    char *out;
    Py_ssize_t row_bytes, rows; /* take_rows: bytes per row, rows of src */
    Py_ssize_t cols, picks;     /* gather_rows: items per src row, indices per row */
    Py_ssize_t itemsize;
    int bad; /* set by any thread that met an index out of range */
} pick_ctx;

/* out[i] = src[index[i]] for rows of row_bytes bytes. */
static void take_rows_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    pick_ctx *c = ctx;
    for (Py_ssize_t i = begin; i < end; i++) {
        int64_t k = c->index[i];
        if (k < 0 || k >= c->rows) {
            c->bad = 1;
            return;
        }
        memcpy(c->out + i * c->row_bytes, c->src + k * c->row_bytes, (size_t)c->row_bytes);
    }
}

/* The arrays of the index and mask kernels: src and a key (index or mask) from args[0] and
 * args[1], read, and out from args[2], written. 0, or -1 with an error set and nothing held. */
static int get_three_arrays(PyObject *const *args, volta_array *src, volta_array *key,
                            volta_array *out) {
    if (volta_get_array(args[0], src, 0) < 0) return -1;
    if (volta_get_array(args[1], key, 0) < 0) {
        volta_release(src);
        return -1;
    }
    if (volta_get_array(args[2], out, 1) < 0) {
        volta_release(src);
        volta_release(key);
        return -1;
    }
    return 0;
}

static void release_three(volta_array *src, volta_array *key, volta_array *out) {
    volta_release(src);
    volta_release(key);
    volta_release(out);
}

/* Reads the buffers of an index kernel: args[0] read, args[1] int64 index, args[2] written. */
static int get_pick_arrays(PyObject *const *args, volta_array *src, volta_array *index,
                           volta_array *out) {
    if (get_three_arrays(args, src, index, out) < 0) return -1;
    const char *fmt = index->view.format ? index->view.format : "B";
    char last = fmt[strlen(fmt) - 1];
    if (index->itemsize != 8 || (last != 'q' && last != 'l') || src->itemsize != out->itemsize) {
        release_three(src, index, out);
        PyErr_SetString(PyExc_TypeError, "index kernels: an int64 index and arrays of one dtype");
        return -1;
    }
    return 0;
}

/* The (count, threads) that end the index kernels' arguments: args[3] a row or column count
 * (the caller checks its range), args[4] the thread count. 0, or -1 with an error set. */
static int count_and_threads(PyObject *const *args, Py_ssize_t *count, int *threads) {
    *count = PyLong_AsSsize_t(args[3]);
    if (*count == -1 && PyErr_Occurred()) return -1;
    return volta_arg_threads(args[4], threads);
}

/* A 2-D index's rows and indices per row; rows -1 where the index is not 2-D. */
static void index_grid(const volta_array *index, Py_ssize_t *rows, Py_ssize_t *picks) {
    int grid = index->view.ndim == 2;
    *rows = grid ? index->view.shape[0] : -1;
    *picks = grid ? index->view.shape[1] : 0;
}

/* take_rows(src, index, out, rows, threads) -> bool: out[i, ...] = src[index[i], ...] for src
 * of `rows` rows (index_select along dim 0, embedding); False if an index is out of range. */
static PyObject *take_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("take_rows", nargs, 5);
    Py_ssize_t rows;
    int threads;
    if (count_and_threads(args, &rows, &threads) < 0) return NULL;
    volta_array src, index, out;
    if (get_pick_arrays(args, &src, &index, &out) < 0) return NULL;
    Py_ssize_t src_bytes = src.size * src.itemsize;
    Py_ssize_t row_bytes = rows > 0 ? src_bytes / rows : 0;
    if (rows < 0 || row_bytes * rows != src_bytes || out.size * out.itemsize != index.size * row_bytes) {
        release_three(&src, &index, &out);
        PyErr_SetString(PyExc_ValueError, "take_rows: out must hold one src row per index");
        return NULL;
    }
    pick_ctx ctx = {src.data, index.data, out.data, row_bytes, rows, 0, 0, src.itemsize, 0};
    if (row_bytes > 0) {
        Py_BEGIN_ALLOW_THREADS
        volta_parallel_items(index.size, GRAIN_BYTES / row_bytes + 1, threads, take_rows_range, &ctx);
        Py_END_ALLOW_THREADS
    } else {
        for (Py_ssize_t i = 0; i < index.size; i++) /* empty rows: only the check */
            if (((const int64_t *)index.data)[i] < 0 || ((const int64_t *)index.data)[i] >= rows)
                ctx.bad = 1;
    }
    release_three(&src, &index, &out);
    return PyBool_FromLong(!ctx.bad);
}

/* out[i, j] = src[i, index[i, j]] for rows i of `picks` indices into src rows of `cols` items.
 * The bounds test is folded into the loop (an index out of range reads item 0 and marks the
 * row bad) so that the loop vectorises, with the clones' gather instructions. */
VOLTA_VECTOR static void gather_rows_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    pick_ctx *c = ctx;
    Py_ssize_t picks = c->picks;
    uint64_t cols = (uint64_t)c->cols;
    for (Py_ssize_t i = begin; i < end; i++) {
        const int64_t *index = c->index + i * picks;
        uint64_t over = 0;
        if (c->itemsize == 4) {
            const uint32_t *src = (const uint32_t *)c->src + i * c->cols;
            uint32_t *out = (uint32_t *)c->out + i * picks;
            for (Py_ssize_t j = 0; j < picks; j++) {
                uint64_t k = (uint64_t)index[j]; /* a negative one reads as huge */
                over |= k >= cols;
                out[j] = src[k < cols ? k : 0];
            }
        } else {
            const uint64_t *src = (const uint64_t *)c->src + i * c->cols;
            uint64_t *out = (uint64_t *)c->out + i * picks;
            for (Py_ssize_t j = 0; j < picks; j++) {
                uint64_t k = (uint64_t)index[j];
                over |= k >= cols;
                out[j] = src[k < cols ? k : 0];
            }
        }
        if (over) {
            c->bad = 1;
            return;
        }
    }
}

/* gather_rows(src, index, out, cols, threads) -> bool: gather along the last dim of a 2-D src
 * (rows of `cols` items, 4 or 8 bytes each) by a 2-D index of no more rows; False if an index
 * is out of range. */
static PyObject *gather_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("gather_rows", nargs, 5);
    Py_ssize_t cols;
    int threads;
    if (count_and_threads(args, &cols, &threads) < 0) return NULL;
    volta_array src, index, out;
    if (get_pick_arrays(args, &src, &index, &out) < 0) return NULL;
    Py_ssize_t src_rows = cols > 0 ? src.size / cols : 0;
    Py_ssize_t rows, picks;
    index_grid(&index, &rows, &picks);
    if (cols <= 0 || src_rows * cols != src.size || rows < 0 || rows > src_rows ||
        out.size != index.size || (src.itemsize != 4 && src.itemsize != 8)) {
        release_three(&src, &index, &out);
        PyErr_SetString(PyExc_ValueError, "gather_rows: a 2-D index of no more rows than src");
        return NULL;
    }
    pick_ctx ctx = {src.data, index.data, out.data, 0, 0, cols, picks, src.itemsize, 0};
    Py_BEGIN_ALLOW_THREADS
    volta_parallel_items(rows, GRAIN_BYTES / (picks * 16 + 1) + 1, threads, gather_rows_range, &ctx);
    Py_END_ALLOW_THREADS
    release_three(&src, &index, &out);
    return PyBool_FromLong(!ctx.bad);
}

/* ---- their backwards: sums into the picked places, in a fixed order --------------------- */

typedef struct {
    const char *src;
    const int64_t *index;
    char *out;
    Py_ssize_t count, cols, picks, out_rows;
    int is_double;
} add_ctx;

/* Columns [begin, end) of out[index[i], :] += src[i, :] for every i in order: each thread owns
 * its columns, so the sums are the same on any number of threads. */
VOLTA_VECTOR static void add_rows_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const add_ctx *c = ctx;
    Py_ssize_t cols = c->cols, n = end - begin;
    for (Py_ssize_t i = 0; i < c->count; i++) {
        Py_ssize_t k = (Py_ssize_t)c->index[i];
        if (c->is_double) {
            double *out = (double *)c->out + k * cols + begin;
            const double *src = (const double *)c->src + i * cols + begin;
            for (Py_ssize_t j = 0; j < n; j++) out[j] += src[j];
        } else {
            float *out = (float *)c->out + k * cols + begin;
            const float *src = (const float *)c->src + i * cols + begin;
            for (Py_ssize_t j = 0; j < n; j++) out[j] += src[j];
        }
    }
}

/* out[i, index[i, j]] += src[i, j], rows i in parallel, each row's j in order. */
static void add_picks_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) {
    const add_ctx *c = ctx;
    Py_ssize_t cols = c->cols, picks = c->picks;
    for (Py_ssize_t i = begin; i < end; i++) {
        const int64_t *index = c->index + i * picks;
        if (c->is_double) {
            double *out = (double *)c->out + i * cols;
            const double *src = (const double *)c->src + i * picks;
            for (Py_ssize_t j = 0; j < picks; j++) out[index[j]] += src[j];
        } else {
            float *out = (float *)c->out + i * cols;
            const float *src = (const float *)c->src + i * picks;
            for (Py_ssize_t j = 0; j < picks; j++) out[index[j]] += src[j];
        }
    }
}

/* Reads (out, index, src) for the adds: float32 or float64 out and src, int64 index, every
 * index in [0, limit). Returns 1 ready, 0 an index out of range (nothing written), -1 error. */
static int get_add_arrays(PyObject *const *args, volta_array *out, volta_array *index,
                          volta_array *src, Py_ssize_t limit, int *is_double) {
    if (get_pick_arrays((PyObject *const[]){args[2], args[1], args[0]}, src, index, out) < 0)
        return -1;
    char kind = volta_float_kind(out);
    if (!kind || volta_float_kind(src) != kind) {
        release_three(src, index, out);
        PyErr_SetString(PyExc_TypeError, "index adds: float32 or float64 arrays");
        return -1;
    }
    *is_double = kind == 'd';
    const int64_t *idx = index->data;
    for (Py_ssize_t i = 0; i < index->size; i++)
        if ((uint64_t)idx[i] >= (uint64_t)limit) {
            release_three(src, index, out);
            return 0;
        }
    return 1;
}

/* index_add_rows(out, index, src, rows, threads) -> bool: out[index[i], :] += src[i, :] for
 * out of `rows` rows (index_select's and embedding's backward, index_add along dim 0); False
 * if an index is out of range (nothing written). */
static PyObject *index_add_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("index_add_rows", nargs, 5);
    Py_ssize_t rows;
    int threads;
    if (count_and_threads(args, &rows, &threads) < 0) return NULL;
    volta_array out, index, src;
    int is_double;
    int ready = get_add_arrays(args, &out, &index, &src, rows, &is_double);
    if (ready <= 0) {
        if (ready < 0) return NULL;
        Py_RETURN_FALSE;
    }
    Py_ssize_t cols = rows > 0 ? out.size / rows : 0;
    if (rows <= 0 || cols * rows != out.size || src.size != index.size * cols) {
        release_three(&src, &index, &out);
        PyErr_SetString(PyExc_ValueError, "index_add_rows: src must hold one out row per index");
        return NULL;
    }
    add_ctx ctx = {src.data, index.data, out.data, index.size, cols, 0, rows, is_double};
    /* split the columns: each share at least a GRAIN_BYTES-th of the work, 16 items wide */
    Py_ssize_t work = index.size * cols * out.itemsize;
    Py_ssize_t grain = work > 0 ? cols * GRAIN_BYTES / work + 1 : cols;
    Py_BEGIN_ALLOW_THREADS
    volta_parallel(cols, grain < 16 ? 16 : grain, threads, add_rows_range, &ctx);
    Py_END_ALLOW_THREADS
    release_three(&src, &index, &out);
    Py_RETURN_TRUE;
}

/* scatter_add_rows(out, index, src, cols, threads) -> bool: gather_rows' backward,
 * out[i, index[i, j]] += src[i, j] for out rows of `cols` items; False if an index is out of
 * range (nothing written). */
static PyObject *scatter_add_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("scatter_add_rows", nargs, 5);
    Py_ssize_t cols;
    int threads;
    if (count_and_threads(args, &cols, &threads) < 0) return NULL;
    volta_array out, index, src;
    int is_double;
    int ready = get_add_arrays(args, &out, &index, &src, cols, &is_double);
    if (ready <= 0) {
        if (ready < 0) return NULL;
        Py_RETURN_FALSE;
    }
    Py_ssize_t rows, picks;
    index_grid(&index, &rows, &picks);
    if (cols <= 0 || out.size % cols || rows < 0 || rows > out.size / cols ||
        src.size != index.size) {
        release_three(&src, &index, &out);
        PyErr_SetString(PyExc_ValueError, "scatter_add_rows: a 2-D index of no more rows than out");
        return NULL;
    }
    add_ctx ctx = {src.data, index.data, out.data, index.size, cols, picks, 0, is_double};
    Py_BEGIN_ALLOW_THREADS
    volta_parallel_items(rows, GRAIN_BYTES / (picks * 16 + 1) + 1, threads, add_picks_range, &ctx);
    Py_END_ALLOW_THREADS
    release_three(&src, &index, &out);
    Py_RETURN_TRUE;
}

/* ---- boolean masks ------------------------------------------------------------------------ */

#define MASK_BLOCK 64
#define MAX_SHARES 64

typedef struct {
    const char *src;
    const uint8_t *mask;
    char *out;
    Py_ssize_t n, itemsize, count;
    int is_double;
} mask_ctx;

/* out[k...] = the src items of [begin, end) whose mask is set, in order: compacted a block at a
 * time into a buffer without branches (a random mask would mispredict every other element). */
VOLTA_VECTOR static void select_range(const mask_ctx *c, Py_ssize_t begin, Py_ssize_t end,
                                      Py_ssize_t k) {
    Py_ssize_t item = c->itemsize;
    for (Py_ssize_t b = begin; b < end; b += MASK_BLOCK) {
        Py_ssize_t len = end - b < MASK_BLOCK ? end - b : MASK_BLOCK, taken = 0;
        const uint8_t *mask = c->mask + b;
        if (item == 4) {
            uint32_t buffer[MASK_BLOCK + 1];
            const uint32_t *src = (const uint32_t *)c->src + b;
            for (Py_ssize_t j = 0; j < len; j++) {
                buffer[taken] = src[j];
                taken += mask[j] != 0;
            }
            memcpy(c->out + k * 4, buffer, (size_t)taken * 4);
        } else if (item == 8) {
            uint64_t buffer[MASK_BLOCK + 1];
            const uint64_t *src = (const uint64_t *)c->src + b;
            for (Py_ssize_t j = 0; j < len; j++) {
                buffer[taken] = src[j];
                taken += mask[j] != 0;
            }
            memcpy(c->out + k * 8, buffer, (size_t)taken * 8);
        } else {
            for (Py_ssize_t j = 0; j < len; j++)
                if (mask[j]) {
                    memcpy(c->out + (k + taken) * item, c->src + (b + j) * item, (size_t)item);
                    taken++;
                }
        }
        k += taken;
    }
}

/* out[i] += values[k++] for the i of [begin, end) whose mask is set (float32 / float64): a
 * block's values are spread over its places, -0.0 where the mask is unset (x + -0.0 is x for
 * every x, -0.0 and NaN included), picked with bit masks rather than branches. */
VOLTA_VECTOR static void mask_add_range(const mask_ctx *c, Py_ssize_t begin, Py_ssize_t end,
                                        Py_ssize_t k) {
    for (Py_ssize_t b = begin; b < end; b += MASK_BLOCK) {
        Py_ssize_t len = end - b < MASK_BLOCK ? end - b : MASK_BLOCK, taken = 0, set = 0;
        const uint8_t *mask = c->mask + b;
        for (Py_ssize_t j = 0; j < len; j++) set += mask[j] != 0;
        if (c->is_double) {
            uint64_t buffer[MASK_BLOCK + 1];
            memcpy(buffer, c->src + k * 8, (size_t)set * 8);
            buffer[set] = 0;
            double *out = (double *)c->out + b;
            for (Py_ssize_t j = 0; j < len; j++) {
                uint64_t keep = 0 - (uint64_t)(mask[j] != 0);
                uint64_t bits = (buffer[taken] & keep) | (0x8000000000000000u & ~keep);
                double v;
                memcpy(&v, &bits, 8);
                out[j] += v;
                taken += mask[j] != 0;
            }
        } else {
            uint32_t buffer[MASK_BLOCK + 1];
            memcpy(buffer, c->src + k * 4, (size_t)set * 4);
            buffer[set] = 0;
            float *out = (float *)c->out + b;
            for (Py_ssize_t j = 0; j < len; j++) {
                uint32_t keep = 0 - (uint32_t)(mask[j] != 0);
                uint32_t bits = (buffer[taken] & keep) | (0x80000000u & ~keep);
                out[j] += volta_bits_to_float(bits);
                taken += mask[j] != 0;
            }
        }
        k += set;
    }
}

/* Runs select_range / mask_add_range over [0, n) in shares of MASK_BLOCK multiples, each share
 * starting at the count of set mask bytes before it (counted by the threads first). Returns the
 * total count; nothing is written when it is not c->count. */
static Py_ssize_t run_masked(mask_ctx *c, int threads, int adding) {
    Py_ssize_t shares = c->n / (GRAIN_BYTES / 2) + 1;
    if (shares > threads) shares = threads;
    if (shares > MAX_SHARES) shares = MAX_SHARES;
    if (shares < 1) shares = 1;
    Py_ssize_t counts[MAX_SHARES + 1];
    Py_ssize_t total = 0;
    int ok = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads((int)shares) if (shares > 1)
#endif
    {
        Py_ssize_t k = volta_num_threads(), i = volta_thread_num();
        Py_ssize_t blocks = (c->n + MASK_BLOCK - 1) / MASK_BLOCK;
        Py_ssize_t begin = blocks * i / k * MASK_BLOCK, end = blocks * (i + 1) / k * MASK_BLOCK;
        if (end > c->n) end = c->n;
        Py_ssize_t mine = 0;
        for (Py_ssize_t j = begin; j < end; j++) mine += c->mask[j] != 0;
        counts[i] = mine;
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
        {
            total = 0;
            for (Py_ssize_t t = 0; t < k; t++) total += counts[t];
            ok = total == c->count;
        }
        /* the implicit barrier after single: every thread sees total and ok */
        if (ok) {
            Py_ssize_t before = 0;
            for (Py_ssize_t t = 0; t < i; t++) before += counts[t];
            if (adding)
                mask_add_range(c, begin, end, before);
            else
                select_range(c, begin, end, before);
        }
    }
    return total;
}

/* Reads (src, mask, out) of a mask kernel: mask a bool (1-byte) array. */
static int get_mask_arrays(PyObject *const *args, volta_array *src, volta_array *mask,
                           volta_array *out) {
    if (get_three_arrays(args, src, mask, out) < 0) return -1;
    if (mask->itemsize != 1) {
        release_three(src, mask, out);
        PyErr_SetString(PyExc_TypeError, "mask kernels: a bool mask");
        return -1;
    }
    return 0;
}

/* mask_select(src, mask, out, threads) -> bool: out = src[mask] (flat, in order) for src and
 * mask of one size and out of as many items as mask has set; False (out not written) when
 * out's size is not that count. */
static PyObject *mask_select(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("mask_select", nargs, 4);
    int threads = (int)volta_arg_long(args[3]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    volta_array src, mask, out;
    if (get_mask_arrays(args, &src, &mask, &out) < 0) return NULL;
    if (src.size != mask.size || src.itemsize != out.itemsize) {
        release_three(&src, &mask, &out);
        PyErr_SetString(PyExc_ValueError, "mask_select: src and mask of one size");
        return NULL;
    }
    mask_ctx ctx = {src.data, mask.data, out.data, src.size, src.itemsize, out.size, 0};
    Py_ssize_t total;
    Py_BEGIN_ALLOW_THREADS
    total = run_masked(&ctx, threads, 0);
    Py_END_ALLOW_THREADS
    release_three(&src, &mask, &out);
    return PyBool_FromLong(total == ctx.count);
}

/* mask_add(out, mask, values, threads) -> bool: out[mask] += values (float32 / float64, out
 * and mask of one size, values as many as mask has set; x[mask]'s backward); False (nothing
 * written) when values' size is not that count. */
static PyObject *mask_add(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    VOLTA_CHECK_NARGS("mask_add", nargs, 4);
    int threads = (int)volta_arg_long(args[3]);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    volta_array values, mask, out;
    if (get_mask_arrays((PyObject *const[]){args[2], args[1], args[0]}, &values, &mask, &out) < 0)
        return NULL;
    char kind = volta_float_kind(&out);
    if (out.size != mask.size || !kind || volta_float_kind(&values) != kind) {
        release_three(&values, &mask, &out);
        PyErr_SetString(PyExc_ValueError, "mask_add: float out and values, out and mask of one size");
        return NULL;
    }
    mask_ctx ctx = {values.data, mask.data, out.data, out.size, out.itemsize, values.size,
                    kind == 'd'};
    Py_ssize_t total;
    Py_BEGIN_ALLOW_THREADS
    total = run_masked(&ctx, threads, 1);
    Py_END_ALLOW_THREADS
    release_three(&values, &mask, &out);
    return PyBool_FromLong(total == ctx.count);
}

static PyMethodDef methods[] = {
    VOLTA_METHOD(copy, "dst[...] = src (strided)"),
    VOLTA_METHOD(copy_parts,
                 "dests[i][...] = sources[i] for up to 16 pairs, in one parallel region"),
    VOLTA_METHOD(mask_select,
                 "out = src[mask] (flat); False if out's size is not the mask's count"),
    VOLTA_METHOD(mask_add,
                 "out[mask] += values (flat); False if values' size is not the mask's count"),
    VOLTA_METHOD(take_rows, "out[i] = src[index[i]] (rows); False if an index is out of range"),
    VOLTA_METHOD(gather_rows, "out[i, j] = src[i, index[i, j]]; False if an index is out of range"),
    VOLTA_METHOD(index_add_rows,
                 "out[index[i]] += src[i] (rows, deterministic); False if an index is out of "
                 "range"),
    VOLTA_METHOD(scatter_add_rows,
                 "out[i, index[i, j]] += src[i, j] (deterministic); False if an index is out of "
                 "range"),
    {NULL, NULL, 0, NULL},
};

VOLTA_MODULE(copy)
