/*
 * C core of games/engine/solver.py: the same search, the same prunings, the
 * same move order (so the same node counts and the same winning lines).
 *
 * The module docstring of solver.py documents the search and argues the
 * soundness of every pruning rule; this file implements exactly that:
 *
 *  - depth-first graph search with a transposition table of canonical keys
 *    (tableau pile order ignored, foundations implied), iterative with an
 *    explicit frame stack (no C recursion);
 *  - the stock and waste as the set of reachable waste cards, one search
 *    step per reachable card, the concrete draw/redeal sequence recorded;
 *  - safe automatic foundation moves under conditions (a) and (b);
 *  - move order in five classes (ORDER_CLASS): reserve moves, moves whose
 *    emptied pile the reserve auto-fills, other tableau cards home, other
 *    builds (tableau, then waste), waste cards home; the other orders, the
 *    heuristic order (children by the score of heuristic()) and the shuffle
 *    within classes that solver.py's restarts ask for;
 *  - duplicate moves skipped: a whole pile onto an empty pile, and a card
 *    onto an empty pile other than the first empty one.
 *
 * The transposition table stores every key in full (open addressing, the
 * key itself in the slot, 3 words for classic; see make_key), and membership
 * is decided by a full comparison, so a hash collision can never make a new
 * position look seen (no false "lost").  The keys of all children of a node
 * are computed and their slots prefetched before any is looked up
 * (filter_seen), and the table lives in transparent huge pages where the
 * kernel allows them: most of the search's time is these lookups.
 *
 * The talon (waste then stock, in draw order) only ever loses cards, so it is
 * always a subsequence of the root talon: in the key it is a bit mask over the
 * root talon's positions, which identifies it exactly.
 *
 * Budgets: nodes (positions expanded), wall time (clock read every 1024
 * nodes) and memory (table + stacks); running out of any gives
 * "unknown", never a crash.  A search that ran out of nodes or time can go on
 * (begin/advance, for solver.py's first search, paused while its restarts
 * run): it keeps its table and stack, and slices of n1, n2, ... positions
 * take the steps of one search of n1 + n2 + ... positions.  The GIL is
 * released during the search and taken back every 65536 nodes to let Ctrl-C
 * through.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <pthread.h>

#define NC 52
#define KW_MAX 8 /* words per key at most: 30 + 52 + 24 + 6 * 52 bits (make_key) */
#define FOUND_DEST 4

enum { MODE_TOP_OR_WHOLE = 0, MODE_WHOLE_PILE = 1, MODE_ANY_RUN = 2 };
enum { MV_RF, MV_TF, MV_WF, MV_RT, MV_TT, MV_WT };
enum { ST_RUNNING, ST_WON, ST_LOST, ST_NODES, ST_TIME, ST_MEMORY, ST_INTERRUPT };

typedef unsigned __int128 u128;

typedef struct {
    u128 code[4];        /* compact code of each pile (make_key), kept by every move */
    uint64_t tmask;      /* the talon as a mask over the root talon's positions */
    int32_t rl;          /* redeals left, -1 unlimited */
    uint8_t nr, w, tl;   /* reserve count, waste length, talon length */
    uint8_t found[4];    /* cards home per suit */
    uint8_t plen[4];
    /* the card arrays, after the header above (apply_to copies only the header) */
    uint8_t talon[NC];   /* waste bottom..top, then stock next..last */
    uint8_t pile[4][NC]; /* bottom..top, real order t1..t4 */
} Pos;

typedef struct {
    uint8_t kind, src, k, dest; /* dest 0..3 tableau, FOUND_DEST foundation */
    uint8_t pos, k1, redeal, k2;
    int32_t rl2;
    uint8_t seen; /* 1: child already in the table when its parent was entered, or dead in
                   * the reference search; 0: neither; 2: not looked up yet */
    int16_t score; /* order 4: heuristic() score of the child (-936..896), highest first */
} Move;

typedef struct {
    uint8_t k1, redeal, k2, card, dest;
} Step;

typedef struct {
    Pos pos;
    size_t mv_start, mv_next, mv_end;
    size_t path_mark;
    uint32_t idx, low; /* dead sets: the visit number of the frame's key, its low link */
    size_t tpos;       /* dead sets: its place on the Tarjan stack */
} Frame;

typedef struct {
    uint8_t pos, k1, redeal, k2;
    int32_t rl2;
} Reach;

typedef struct Search {
    /* problem */
    uint8_t R[NC];
    int draw, autofill, empty_any, mode, safe_auto;
    int order;    /* move order 0..4 (ORDER_CLASS; 3: a class table drawn at random; 4: heuristic()) */
    uint8_t classes[8]; /* the class of each move category under this order */
    uint64_t rng; /* shuffle state; 0: no shuffle */
    uint8_t fits[NC * NC];
    uint8_t rel[NC], suit[NC];
    uint8_t needs_n[NC], needs_suit[NC][NC], needs_rel[NC][NC], needs_card[NC][NC];
    uint8_t rootidx[NC];
    int tl_root;
    int compact, cbits, kw;   /* key form (make_key), words per key */
    int nrbits, wbits, rlbits; /* widths of the key's nr, w and rl fields */
    int sw;                   /* words per table slot: the key, and with dead sets its visit
                               * number (0: imported dead): in the top 32 bits of the key's
                               * last word when the key leaves them free (vin), else a word
                               * of its own */
    int vin;                  /* the visit number in the key's last word */
    uint64_t kmask;           /* the key's bits in its last word (all of them unless vin) */
    int chains;               /* every pile a chain (each card fits on the one under it) */
    uint8_t cidx[NC * NC];    /* cidx[d * NC + t]: index of d among the cards that fit on t */
    uint64_t fit_on[NC];      /* bit d of fit_on[t]: fits[d * NC + t] (generate's quick test) */
    uint8_t w_whole[NC + 1];  /* 1 when w is a whole number of draws (w % draw == 0) */
    int sh_w, sh_rl, sh_t;    /* make_key's header: where w, rl and the talon mask start */
    /* transposition table */
    uint64_t *slots;          /* cap slots of sw words */
    size_t cap, count;
    /* dead sets (solver.py, "Dead sets"): Tarjan's bookkeeping, when on */
    int dead_sets;
    uint32_t visits;          /* keys numbered so far */
    uint64_t *done;           /* bit v: visit v's component is complete (bit 0 set) */
    size_t done_cap;          /* words */
    uint32_t *tstack;         /* visit numbers reached, not yet in a complete component */
    size_t ntstack, tstack_cap;
    struct Search *ref;       /* a paused search of the same position whose dead keys this one
                               * skips (refer()); NULL: none */
    /* the children's keys and hashes, a row of kw + 1 words for each move on the
     * moves stack (filter_seen; a move marked 2 has none), so that a child is
     * not keyed again when its turn comes */
    uint64_t *kbuf;
    size_t kbuf_cap;
    /* stacks */
    Frame *frames;
    size_t nframes, frames_cap;
    Move *moves;
    size_t nmoves, moves_cap;
    Step *path;
    size_t npath, path_cap;
    /* budgets */
    long long nodes, max_nodes;
    double deadline;
    int has_deadline;
    size_t max_bytes;
    PyThreadState *tstate;
    int status;
    int started; /* run_begin done (advance) */
    int busy;    /* advance running (the GIL is released): another advance is refused */
    Pos root;
} Search;

/* ------------------------------------------------------------------ memory */

static size_t mem_total(const Search *s) {
    return s->cap * (size_t)s->sw * 8 + s->kbuf_cap * 8 + s->frames_cap * sizeof(Frame) +
           s->moves_cap * sizeof(Move) + s->path_cap * sizeof(Step) + s->done_cap * 8 +
           s->tstack_cap * 4;
}

/* Grow a buffer to hold at least `need` items (doubling); 0 on memory cap/failure.
 * When the doubled buffer would not fit under the cap, take what is left under
 * it if that is enough and `take_rest` is set; otherwise fail. */
static int grow_to(Search *s, void **buf, size_t *cap, size_t need, size_t item, int take_rest) {
    if (need <= *cap) return 1;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) ncap *= 2;
    size_t other = mem_total(s) - *cap * item;
    if (other + ncap * item > s->max_bytes) {
        if (!take_rest || s->max_bytes < other) return 0;
        ncap = (s->max_bytes - other) / item;
        if (ncap < need) return 0;
    }
    void *nb = realloc(*buf, ncap * item);
    if (!nb) return 0;
    *buf = nb;
    *cap = ncap;
    return 1;
}

/* grow_to() taking what is left under the cap: the stacks a search needs. */
static inline int grow(Search *s, void **buf, size_t *cap, size_t need, size_t item) {
    return need <= *cap || grow_to(s, buf, cap, need, item, 1);
}

/* -------------------------------------------------------------------- hash */

static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

/* The hash of a key, or of the key in a slot (its visit number masked off). */
static inline uint64_t hash_key(const Search *s, const uint64_t *k) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    int last = s->kw - 1;
    for (int i = 0; i < last; i++) h = mix64(h ^ k[i]) + 0x9E3779B97F4A7C15ULL;
    h = mix64(h ^ (k[last] & s->kmask)) + 0x9E3779B97F4A7C15ULL;
    return mix64(h);
}

/* 1 when the slot e holds the key (make_key's form: no visit number in it). */
static inline int key_eq(const Search *s, const uint64_t *e, const uint64_t *key) {
    int last = s->kw - 1;
    for (int i = 0; i < last; i++)
        if (e[i] != key[i]) return 0;
    return ((e[last] ^ key[last]) & s->kmask) == 0;
}

/* Zeroed memory for the table, in transparent huge pages where the kernel
 * allows them (random probes over hundreds of MB otherwise miss the TLB too).
 *
 * Freed tables are kept for reuse, at most one block of each size, and
 * cleared with memset when taken again.  Memory the process keeps is cleared
 * many times faster than fresh pages are faulted in and zeroed by the kernel
 * (on virtual machines that hand freed memory back to the host, 2.2 s per GB
 * against 0.03 s per GB was measured), and a table doubles from 1024 slots
 * while restarts and the next deal start small again, so the same sizes come
 * back.  The blocks kept add up to at most twice the largest one (the sizes of
 * one key width are a doubling series, which always fits, but for a last
 * smaller step near the memory cap, table_grow), and they count
 * against the memory cap of a search whose table grows: table_grow gives back
 * what the search's own memory and its new table leave no room for, so a
 * process holds no more than the caps it was given.  release_tables() gives
 * them all back.  The GIL is not held while a table grows, so a mutex guards
 * the blocks. */
#define KEPT_MAX 64
static struct {
    void *p;
    size_t bytes;
} kept[KEPT_MAX];
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t *table_alloc(size_t bytes) {
    void *p = NULL;
    pthread_mutex_lock(&kept_lock);
    for (int i = 0; i < KEPT_MAX; i++)
        if (kept[i].p && kept[i].bytes == bytes) {
            p = kept[i].p;
            kept[i].p = NULL;
            break;
        }
    pthread_mutex_unlock(&kept_lock);
    if (p) {
        memset(p, 0, bytes);
        return (uint64_t *)p;
    }
    p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= (2u << 20)) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return (uint64_t *)p;
}

/* The index of the largest (largest = 1) or smallest kept block other than
 * kept[skip]; -1 when there is none.  Called with kept_lock held. */
static int kept_extreme(int largest, int skip) {
    int m = -1;
    for (int i = 0; i < KEPT_MAX; i++)
        if (kept[i].p && i != skip &&
            (m < 0 || (largest ? kept[i].bytes > kept[m].bytes : kept[i].bytes < kept[m].bytes)))
            m = i;
    return m;
}

/* Keep p (bytes long) for reuse, dropping the smallest kept blocks while the
 * kept total would exceed twice the largest block; or give it back. */
static void table_free(uint64_t *p, size_t bytes) {
    if (!p) return;
    void *drop[KEPT_MAX];
    size_t drop_bytes[KEPT_MAX];
    int ndrop = 0;
    pthread_mutex_lock(&kept_lock);
    size_t total = bytes, largest = bytes;
    int free_at = -1, same = 0;
    for (int i = 0; i < KEPT_MAX; i++) {
        if (!kept[i].p) {
            if (free_at < 0) free_at = i;
            continue;
        }
        if (kept[i].bytes == bytes) same = 1;
        total += kept[i].bytes;
        if (kept[i].bytes > largest) largest = kept[i].bytes;
    }
    if (!same && free_at >= 0) {
        kept[free_at].p = p;
        kept[free_at].bytes = bytes;
        p = NULL;
        while (total > 2 * largest) { /* the smallest goes first */
            int m = kept_extreme(0, -1);
            total -= kept[m].bytes;
            drop[ndrop] = kept[m].p;
            drop_bytes[ndrop++] = kept[m].bytes;
            kept[m].p = NULL;
        }
    }
    pthread_mutex_unlock(&kept_lock);
    if (p) munmap(p, bytes);
    for (int i = 0; i < ndrop; i++) munmap(drop[i], drop_bytes[i]);
}

/* Give kept blocks back to the system, the largest first, until the others add
 * up to at most `allowance` bytes; one block of `spare` bytes (about to be
 * taken) is neither counted nor given back.  The bytes given back. */
static size_t trim_kept(size_t allowance, size_t spare) {
    void *drop[KEPT_MAX];
    size_t drop_bytes[KEPT_MAX], total = 0, given = 0;
    int ndrop = 0, spared = -1;
    pthread_mutex_lock(&kept_lock);
    for (int i = 0; i < KEPT_MAX; i++)
        if (kept[i].p) {
            if (spared < 0 && kept[i].bytes == spare)
                spared = i;
            else
                total += kept[i].bytes;
        }
    while (total > allowance) {
        int m = kept_extreme(1, spared);
        total -= kept[m].bytes;
        given += kept[m].bytes;
        drop[ndrop] = kept[m].p;
        drop_bytes[ndrop++] = kept[m].bytes;
        kept[m].p = NULL;
    }
    pthread_mutex_unlock(&kept_lock);
    for (int i = 0; i < ndrop; i++) munmap(drop[i], drop_bytes[i]);
    return given;
}

/* The home slot of hash h in a table of cap slots: the high bits of h scaled
 * to 0..cap-1 (any cap, not only a power of two; see table_grow). */
static inline size_t home_of(size_t cap, uint64_t h) { return (size_t)(((u128)h * cap) >> 64); }

/* The table: open addressing with linear probing; each slot holds a whole key
 * of kw words and, with dead sets, its visit number: in the top half of the
 * key's last word when make_key leaves it free (vin), else in a word after
 * the key (word 0 of a key is never 0: make_key sets its lowest bit). */
static void table_put(uint64_t *slots, size_t cap, int sw, uint64_t h, const uint64_t *slot) {
    size_t i = home_of(cap, h);
    while (slots[i * sw])
        if (++i == cap) i = 0;
    memcpy(slots + i * sw, slot, (size_t)sw * 8);
}

/* Grow the table (rehash); 0 when the memory cap forbids it.  It doubles while
 * the cap leaves room for the old table and the new one together.  Near the
 * cap it fills on to 3/4 and then grows by 7/4, 3/2 or 5/4, the most that
 * fits: without this the last doubling that fits leaves a table that the next
 * doubling never fits, and it can only fill on to 7/8 (table_add_h).  Not at
 * 1/2, because fresh memory is slow to fault in (up to 2.2 s per GB, above). */
static int table_grow(Search *s) {
    size_t sw = (size_t)s->sw, held = mem_total(s), ncap = s->cap * 2;
    size_t need = ncap * sw * 8;
    if (held + need > s->max_bytes) {
        if ((s->count + 1) * 4 <= s->cap * 3) return 0;
        for (int q = 7; q >= 5; q--) { /* ncap = cap * q / 4 */
            ncap = s->cap / 4 * (size_t)q;
            need = ncap * sw * 8;
            if (held + need <= s->max_bytes) break;
        }
        if (held + need > s->max_bytes) return 0;
    }
    /* kept blocks count against the cap (table_alloc) */
    if (s->max_bytes != (size_t)-1) trim_kept(s->max_bytes - held - need, need);
    uint64_t *ns = table_alloc(need);
    if (!ns) return 0;
    for (size_t i = 0; i < s->cap; i++) {
        const uint64_t *k = s->slots + i * sw;
        if (k[0]) table_put(ns, ncap, s->sw, hash_key(s, k), k);
    }
    table_free(s->slots, s->cap * sw * 8);
    s->slots = ns;
    s->cap = ncap;
    return 1;
}

static inline const uint64_t *slot_of(const Search *s, uint64_t h) {
    return s->slots + home_of(s->cap, h) * (size_t)s->sw;
}

/* The key's slot, or NULL when the key is not in the table. */
static uint64_t *table_find(const Search *s, const uint64_t *key, uint64_t h) {
    size_t cap = s->cap, i = home_of(cap, h), sw = (size_t)s->sw;
    for (;;) {
        uint64_t *e = s->slots + i * sw;
        if (!e[0]) return NULL;
        if (key_eq(s, e, key)) return e;
        if (++i == cap) i = 0;
    }
}

/* 1: added (new position), 0: already present, -1: memory cap reached; the
 * key's slot in *slot (1, 0). */
static int table_add_h(Search *s, const uint64_t *key, uint64_t h, uint64_t **slot);
static int table_add(Search *s, const uint64_t *key, uint64_t **slot) {
    return table_add_h(s, key, hash_key(s, key), slot);
}

/* table_add() of a key whose hash is h. */
static int table_add_h(Search *s, const uint64_t *key, uint64_t h, uint64_t **slot) {
    if ((s->count + 1) * 2 > s->cap) {
        /* grow at load 1/2; near the cap at 3/4, by less (table_grow); when the cap
         * forbids even that, fill on up to 7/8 */
        if (!table_grow(s) && (s->count + 1) * 8 > s->cap * 7) return -1;
    }
    size_t cap = s->cap, i = home_of(cap, h), sw = (size_t)s->sw;
    for (;;) {
        uint64_t *e = s->slots + i * sw;
        if (!e[0]) {
            memcpy(e, key, (size_t)s->kw * 8);
            s->count++;
            *slot = e;
            return 1;
        }
        if (key_eq(s, e, key)) {
            *slot = e;
            return 0;
        }
        if (++i == cap) i = 0;
    }
}

/* -------------------------------------------------------------- dead sets */

/* Tarjan's strongly connected components over the positions a search reaches
 * (solver.py, "Dead sets"); nothing here runs unless dead_sets is on.  Bit v
 * of `done`: visit v's component is complete. */
static inline int is_done(const Search *s, uint32_t v) { return (int)(s->done[v >> 6] >> (v & 63)) & 1; }
static inline void set_done(Search *s, uint32_t v) { s->done[v >> 6] |= 1ULL << (v & 63); }

/* The visit number kept in a slot, and setting it (sw, vin). */
static inline uint32_t visit_of(const Search *s, const uint64_t *slot) {
    return s->vin ? (uint32_t)(slot[s->kw - 1] >> 32) : (uint32_t)slot[s->kw];
}
static inline void set_visit(const Search *s, uint64_t *slot, uint32_t v) {
    if (s->vin)
        slot[s->kw - 1] = (slot[s->kw - 1] & s->kmask) | (uint64_t)v << 32;
    else
        slot[s->kw] = v;
}

/* 1 when a slot of a search with dead sets holds a key that is dead there (in a
 * complete component, or imported dead: number 0). */
static inline int slot_dead(const Search *s, const uint64_t *e) {
    return e[0] && is_done(s, visit_of(s, e));
}

/* Room for the number of one more key (done bit, Tarjan stack); 0 when the
 * memory cap forbids it. */
static int number_room(Search *s) {
    if (!s->dead_sets) return 1;
    size_t words = s->done_cap;
    if (!grow(s, (void **)&s->done, &s->done_cap, (((size_t)s->visits + 1) >> 6) + 1, 8) ||
        !grow(s, (void **)&s->tstack, &s->tstack_cap, s->ntstack + 1, 4))
        return 0;
    if (s->done_cap > words) memset(s->done + words, 0, (s->done_cap - words) * 8);
    return 1;
}

/* Number the key just added in `slot` and put it on the Tarjan stack (room
 * made by number_room() before the key was added: a key in the table always
 * has its number, and number 0, dead, is never a key left unexpanded). */
static inline void reached(Search *s, uint64_t *slot) {
    if (!s->dead_sets) return;
    uint32_t v = ++s->visits;
    set_visit(s, slot, v);
    s->tstack[s->ntstack++] = v;
}

/* A child already in the table (its slot): the frame's low link takes its
 * number unless its component is complete. */
static inline void low_link(const Search *s, Frame *f, const uint64_t *slot) {
    uint32_t v = visit_of(s, slot);
    if (v < f->low && !is_done(s, v)) f->low = v;
}

/* The top frame is finished: its component is complete when its low link is
 * its own number (every key above it on the Tarjan stack is then done), else
 * its parent's low link takes it. */
static void leave(Search *s) {
    Frame *f = &s->frames[s->nframes - 1];
    if (f->low == f->idx) {
        for (size_t i = f->tpos; i < s->ntstack; i++) set_done(s, s->tstack[i]);
        s->ntstack = f->tpos;
    } else if (s->nframes > 1 && f->low < f[-1].low) {
        f[-1].low = f->low;
    }
}

/* 1 when the key (hash h) is dead in the reference search: in its table, in a
 * complete component (or imported dead). */
static inline int dead_in_ref(const Search *s, const uint64_t *key, uint64_t h) {
    const Search *r = s->ref;
    if (!r || !r->cap) return 0;
    const uint64_t *e = table_find(r, key, h);
    return e && slot_dead(r, e);
}

/* Set a new top frame's Tarjan fields: its key is the last one numbered. */
static inline void frame_numbered(const Search *s, Frame *f) {
    f->idx = f->low = s->visits;
    f->tpos = s->ntstack ? s->ntstack - 1 : 0;
}

/* --------------------------------------------------------------------- key */

static inline int pile_cmp(const Pos *p, int a, int b) {
    if (p->plen[a] != p->plen[b]) return (int)p->plen[a] - (int)p->plen[b];
    return memcmp(p->pile[a], p->pile[b], p->plen[a]);
}

/* Bits needed to write 0..v. */
static inline int bit_width(uint64_t v) {
    int n = 0;
    while (v >> n) n++;
    return n;
}

/* Bits written in order into words kept in registers (make_key). */
typedef struct {
    uint64_t *out;
    uint64_t acc; /* bits not yet stored, from bit 0 */
    int fill;     /* 0..63: how many */
    int i;        /* next word of out */
} BitWriter;

/* Append the n low bits of v (0 <= n <= 64; v has no bits above them). */
static inline void bw_put(BitWriter *b, uint64_t v, int n) {
    b->acc |= v << b->fill;
    int f = b->fill + n;
    if (f >= 64) {
        b->out[b->i++] = b->acc;
        b->acc = b->fill ? v >> (64 - b->fill) : 0;
        f -= 64;
    }
    b->fill = f;
}

static inline void bw_put128(BitWriter *b, u128 v, int n) {
    if (n > 64) {
        bw_put(b, (uint64_t)v, 64);
        bw_put(b, (uint64_t)(v >> 64), n - 64);
    } else {
        bw_put(b, (uint64_t)v, n);
    }
}

/* Store the last bits, then empty words up to out[kw). */
static inline void bw_finish(BitWriter *b, int kw) {
    uint64_t tail = b->fill ? b->acc : 0;
    for (int i = b->i; i < kw; i++) {
        b->out[i] = tail;
        tail = 0;
    }
}

/* The waste length the key records (0 when w reaches the same waste positions
 * as a fresh pass, unlimited redeals only). */
static inline int key_w(const Search *s, const Pos *p) {
    int w = p->w;
    if (p->rl < 0 && w && (s->w_whole[w] || w == p->tl)) w = 0;
    return w;
}

/* The key's header: the marker bit 1, nr, w (key_w), rl + 1 and the talon mask,
 * each as wide as the root needs (sh_w, sh_rl, sh_t). */
static inline void key_header(const Search *s, const Pos *p, BitWriter *b) {
    int w = key_w(s, p), hdr_bits = s->sh_t + s->tl_root;
    uint64_t rl1 = (uint32_t)(p->rl + 1);
    if (hdr_bits <= 64) /* the usual case: the header in one word's arithmetic */
        bw_put(b, 1 | (uint64_t)p->nr << 1 | (uint64_t)w << s->sh_w | rl1 << s->sh_rl | p->tmask << s->sh_t,
               hdr_bits);
    else
        bw_put128(b,
                  1 | (u128)p->nr << 1 | (u128)w << s->sh_w | (u128)rl1 << s->sh_rl |
                      (u128)p->tmask << s->sh_t,
                  hdr_bits);
}

/* make_key() when the piles are not all chains: each card a byte. */
static void make_key_bytes(const Search *s, const Pos *p, uint64_t *out) {
    BitWriter b = {out, 0, 0, 0};
    key_header(s, p, &b);
    int ord[4] = {0, 1, 2, 3};
    for (int i = 1; i < 4; i++) {
        int x = ord[i], j = i - 1;
        while (j >= 0 && pile_cmp(p, ord[j], x) > 0) {
            ord[j + 1] = ord[j];
            j--;
        }
        ord[j + 1] = x;
    }
    for (int i = 0; i < 4; i++) {
        int q = ord[i], n = p->plen[q];
        bw_put(&b, (uint64_t)n, 6);
        for (int k = 0; k < n; k++) bw_put(&b, p->pile[q][k], 6);
    }
    bw_finish(&b, s->kw);
}

#define PILE_LEN_SHIFT 120 /* a pile's sort value: its length above its code (< 2^114) */
#define CMP_SWAP(a, b)                                                                     \
    do {                                                                                   \
        if (v[a] > v[b]) {                                                                 \
            u128 t_ = v[a];                                                                \
            v[a] = v[b];                                                                   \
            v[b] = t_;                                                                     \
        }                                                                                  \
    } while (0)

/* Canonical key into out[0..kw): the header (key_header: nr, w, 0 when it
 * reaches the same waste positions as a fresh pass, unlimited redeals only,
 * rl, the talon as a mask over the root talon), then the four piles sorted
 * (any fixed total order: only equality matters), each as its length (6
 * bits) and then its cards.
 *
 * Compact form (every pile a chain under the build rule, checked at the root
 * and kept by every move): a pile's cards are its bottom card and, for each
 * card above, the card's index among the cards that fit on the one under it
 * (1 bit under alternate colours): the same information, fewer bits; the
 * piles sorted by a network on (length, code), each written in one piece.
 * Otherwise the cards are written one byte each (make_key_bytes).  Bit 0 is
 * always 1, so no key is the all-zero empty slot. */
static inline void make_key(const Search *s, const Pos *p, uint64_t *out) {
    if (!s->compact) {
        make_key_bytes(s, p, out);
        return;
    }
    BitWriter b = {out, 0, 0, 0};
    key_header(s, p, &b);
    u128 v[4];
    for (int q = 0; q < 4; q++) v[q] = (u128)p->plen[q] << PILE_LEN_SHIFT | p->code[q];
    CMP_SWAP(0, 1);
    CMP_SWAP(2, 3);
    CMP_SWAP(0, 2);
    CMP_SWAP(1, 3);
    CMP_SWAP(1, 2);
    const u128 code_mask = (((u128)1) << PILE_LEN_SHIFT) - 1;
    for (int q = 0; q < 4; q++) {
        int n = (int)(v[q] >> PILE_LEN_SHIFT);
        if (n)
            bw_put128(&b, (u128)n | (v[q] & code_mask) << 6, 12 + s->cbits * (n - 1));
        else
            bw_put(&b, 0, 6);
    }
    bw_finish(&b, s->kw);
}
#undef CMP_SWAP

/* ------------------------------------------------------------------- rules */

static inline int next_home(const Search *s, int c, const uint8_t *found) {
    return found[s->suit[c]] == s->rel[c];
}

/* Every card that may be built on c is home. */
static inline int all_home(const Search *s, int c, const uint8_t *found) {
    int n = s->needs_n[c];
    for (int k = 0; k < n; k++)
        if (found[s->needs_suit[c][k]] <= s->needs_rel[c][k]) return 0;
    return 1;
}

/* Condition (a) (solver.py _Search.is_safe): every card d that may be built
 * on c is home, or (when the piles are chains) is next on its foundation with
 * every card that may be built on d home. */
static inline int is_safe(const Search *s, int c, const uint8_t *found) {
    int n = s->needs_n[c];
    for (int k = 0; k < n; k++) {
        int f = found[s->needs_suit[c][k]], r = s->needs_rel[c][k];
        if (f > r) continue;
        if (f < r || !s->chains || !all_home(s, s->needs_card[c][k], found)) return 0;
    }
    return 1;
}

static int push_step(Search *s, int k1, int redeal, int k2, int card, int dest) {
    if (!grow(s, (void **)&s->path, &s->path_cap, s->npath + 1, sizeof(Step))) {
        s->status = ST_MEMORY;
        return 0;
    }
    Step *st = &s->path[s->npath++];
    st->k1 = (uint8_t)k1;
    st->redeal = (uint8_t)redeal;
    st->k2 = (uint8_t)k2;
    st->card = (uint8_t)card;
    st->dest = (uint8_t)dest;
    return 1;
}

static inline u128 low_bits(int n) { return n ? (((u128)1) << n) - 1 : 0; }

/* Pile edits that keep the compact code (make_key) in step with the cards:
 * the code is the bottom card (6 bits) then, for the card at height k >= 1,
 * its index among the cards that fit on the card under it (cbits bits at bit
 * 6 + cbits * (k - 1)).
 *
 * An edit of p reads the cards it needs from `from`: p itself, or the
 * position p was copied from before the move (the piles the edit reads are
 * still the same there).  With `cards` 0 the card arrays of p (piles, talon)
 * are not written, only its header (apply_to). */
static inline void pile_push(const Search *s, const Pos *from, Pos *p, int j, int card, int cards) {
    int n = p->plen[j];
    if (s->compact) {
        if (n)
            p->code[j] |= (u128)s->cidx[card * NC + from->pile[j][n - 1]] << (6 + s->cbits * (n - 1));
        else
            p->code[j] = (u128)card;
    }
    if (cards) p->pile[j][n] = (uint8_t)card;
    p->plen[j] = (uint8_t)(n + 1);
}

static inline void pile_cut(const Search *s, Pos *p, int i, int k) {
    if (s->compact) p->code[i] = k ? p->code[i] & low_bits(6 + s->cbits * (k - 1)) : 0;
    p->plen[i] = (uint8_t)k;
}

/* Move the cards from height k of pile i onto pile j (a chain stays a chain). */
static inline void pile_move_run(const Search *s, const Pos *from, Pos *p, int i, int k, int j,
                                 int cards) {
    int n = p->plen[i], dn = p->plen[j], cnt = n - k;
    if (s->compact) {
        int cb = s->cbits;
        u128 above = (p->code[i] >> (6 + cb * k)) & low_bits(cb * (cnt - 1));
        int card = from->pile[i][k];
        if (dn) {
            p->code[j] |= (u128)s->cidx[card * NC + from->pile[j][dn - 1]] << (6 + cb * (dn - 1));
            p->code[j] |= above << (6 + cb * dn);
        } else {
            p->code[j] = (u128)card | (above << 6);
        }
    }
    if (cards) memcpy(p->pile[j] + dn, p->pile[i] + k, (size_t)cnt);
    p->plen[j] = (uint8_t)(dn + cnt);
    pile_cut(s, p, i, k);
}

static inline void talon_remove(const Search *s, const Pos *from, Pos *p, int idx, int cards) {
    p->tmask &= ~(1ULL << s->rootidx[from->talon[idx]]);
    if (cards) memmove(p->talon + idx, p->talon + idx + 1, (size_t)(p->tl - idx - 1));
    p->tl--;
}

/* Safe foundation moves until none is left (solver.py _Search.auto). */
static int autoplay(Search *s, Pos *p) {
    int changed = 1;
    while (changed) {
        changed = 0;
        if (p->nr) {
            int c = s->R[p->nr - 1];
            if (next_home(s, c, p->found) && (!s->autofill || p->nr == 1) &&
                is_safe(s, c, p->found)) {
                p->found[s->suit[c]]++;
                p->nr--;
                if (!push_step(s, 0, 0, 0, c, FOUND_DEST)) return 0;
                changed = 1;
            }
        }
        for (int i = 0; i < 4; i++) {
            int n = p->plen[i];
            if (!n) continue;
            int c = p->pile[i][n - 1];
            if (next_home(s, c, p->found) && (n > 1 || !s->autofill || !p->nr) &&
                is_safe(s, c, p->found)) {
                p->found[s->suit[c]]++;
                pile_cut(s, p, i, n - 1);
                if (!push_step(s, 0, 0, 0, c, FOUND_DEST)) return 0;
                changed = 1;
            }
        }
        if (p->w && s->draw == 1) {
            int c = p->talon[p->w - 1];
            if (next_home(s, c, p->found) && is_safe(s, c, p->found)) {
                p->found[s->suit[c]]++;
                talon_remove(s, p, p, p->w - 1, 1);
                p->w--;
                if (!push_step(s, 0, 0, 0, c, FOUND_DEST)) return 0;
                changed = 1;
            }
        }
    }
    return 1;
}

/* Waste positions reachable by draw/redeal alone (solver.py _Search.reach). */
static int reach(const Search *s, int n, int w, int32_t rl, Reach *out) {
    int cnt = 0, draw = s->draw;
    uint64_t seen = 0;
    if (w > 0) {
        out[cnt++] = (Reach){(uint8_t)w, 0, 0, 0, rl};
        seen |= 1ULL << w;
    }
    int p = w, k = 0;
    while (p < n) {
        p = p + draw < n ? p + draw : n;
        k++;
        if (!((seen >> p) & 1)) {
            out[cnt++] = (Reach){(uint8_t)p, (uint8_t)k, 0, 0, rl};
            seen |= 1ULL << p;
        }
    }
    if (n > 0 && rl != 0) {
        int32_t rl2 = rl > 0 ? rl - 1 : rl;
        int q = 0, k2 = 0;
        while (q < n) {
            q = q + draw < n ? q + draw : n;
            k2++;
            if (!((seen >> q) & 1)) {
                out[cnt++] = (Reach){(uint8_t)q, (uint8_t)k, 1, (uint8_t)k2, rl2};
                seen |= 1ULL << q;
            }
        }
    }
    return cnt;
}

#define ADD_MOVE(KIND, SRC, K, DEST, R)                                                   \
    do {                                                                                  \
        Move *mv_ = &s->moves[s->nmoves++];                                               \
        mv_->kind = (KIND);                                                               \
        mv_->src = (uint8_t)(SRC);                                                        \
        mv_->k = (uint8_t)(K);                                                            \
        mv_->dest = (uint8_t)(DEST);                                                      \
        if (R) {                                                                          \
            const Reach *r_ = (R);                                                        \
            mv_->pos = r_->pos;                                                           \
            mv_->k1 = r_->k1;                                                             \
            mv_->redeal = r_->redeal;                                                     \
            mv_->k2 = r_->k2;                                                             \
            mv_->rl2 = r_->rl2;                                                           \
        } else {                                                                          \
            mv_->pos = mv_->k1 = mv_->redeal = mv_->k2 = 0;                               \
            mv_->rl2 = 0;                                                                 \
        }                                                                                 \
    } while (0)

/* Every search step from p, best first (solver.py _Search.children). */
static int generate(Search *s, const Pos *p) {
    /* at most 1+4+2*53 foundation, 5 reserve, 4*53*4 tableau, 106*5 waste moves;
     * as much again is scratch for order_moves */
    if (!grow(s, (void **)&s->moves, &s->moves_cap, s->nmoves + 4096, sizeof(Move))) {
        s->status = ST_MEMORY;
        return 0;
    }
    const uint8_t *fits = s->fits;
    int nr = p->nr;
    int can_fill = !s->autofill || nr == 0;
    int empty = -1, tops[4];
    uint64_t fit_any = 0; /* bit c: card c fits on some top */
    for (int j = 0; j < 4; j++) {
        tops[j] = p->plen[j] ? p->pile[j][p->plen[j] - 1] : -1;
        if (tops[j] < 0 && empty < 0) empty = j;
        if (tops[j] >= 0) fit_any |= s->fit_on[tops[j]];
    }
    Reach rs[2 * NC + 2];
    int nrs = reach(s, p->tl, p->w, p->rl, rs);
    const Reach *none = NULL;

    /* 1. foundation moves */
    if (nr) {
        int c = s->R[nr - 1];
        if (next_home(s, c, p->found)) ADD_MOVE(MV_RF, 0, 0, FOUND_DEST, none);
    }
    for (int i = 0; i < 4; i++) {
        int c = tops[i];
        if (c >= 0 && next_home(s, c, p->found)) ADD_MOVE(MV_TF, i, 0, FOUND_DEST, none);
    }
    for (int e = 0; e < nrs; e++) {
        int c = p->talon[rs[e].pos - 1];
        if (next_home(s, c, p->found)) ADD_MOVE(MV_WF, 0, 0, FOUND_DEST, &rs[e]);
    }
    /* 2. reserve to tableau */
    if (nr) {
        int c = s->R[nr - 1];
        for (int j = 0; j < 4; j++)
            if (tops[j] >= 0 && fits[c * NC + tops[j]]) ADD_MOVE(MV_RT, 0, 0, j, none);
        if (empty >= 0 && !s->autofill && s->empty_any) ADD_MOVE(MV_RT, 0, 0, empty, none);
    }
    /* 3. tableau to tableau: moves that empty a pile and auto-fill it first */
    int fill_tab = empty >= 0 && can_fill && s->empty_any;
    int fills_first = s->autofill && nr > 0; /* else the first pass finds nothing */
    /* the run from height K of pile i onto each pile it fits, then onto the empty pile */
#define TRY_RUN(K)                                                                         \
    do {                                                                                   \
        int k_ = (K), c_ = p->pile[i][k_];                                                 \
        if ((fit_any >> c_) & 1)                                                           \
            for (int j = 0; j < 4; j++)                                                    \
                if (j != i && tops[j] >= 0 && fits[c_ * NC + tops[j]])                     \
                    ADD_MOVE(MV_TT, i, k_, j, none);                                       \
        if (fill_tab && k_ > 0) ADD_MOVE(MV_TT, i, k_, empty, none);                       \
    } while (0)
    /* a run starts at height n-1 down to 0 (any-run), n-1 then 0 (top-or-whole) or
     * 0 (whole-pile); the first pass takes the moves that empty the pile (k = 0)
     * when the reserve fills it, the second pass the others */
    for (int pass = !fills_first; pass < 2; pass++) {
        for (int i = 0; i < 4; i++) {
            int n = p->plen[i];
            if (!n) continue;
            if (pass == 0) {
                TRY_RUN(0);
                continue;
            }
            int lo = fills_first; /* k = 0 was the first pass's */
            if (s->mode == MODE_ANY_RUN) {
                for (int k = n - 1; k >= lo; k--) TRY_RUN(k);
            } else {
                if (s->mode == MODE_TOP_OR_WHOLE && n > 1) TRY_RUN(n - 1);
                if (!lo) TRY_RUN(0);
            }
        }
    }
#undef TRY_RUN
    /* 4. waste to tableau */
    int fill_waste = empty >= 0 && can_fill;
    for (int e = 0; e < nrs; e++) {
        int c = p->talon[rs[e].pos - 1];
        if ((fit_any >> c) & 1)
            for (int j = 0; j < 4; j++)
                if (tops[j] >= 0 && fits[c * NC + tops[j]]) ADD_MOVE(MV_WT, 0, 0, j, &rs[e]);
        if (fill_waste) ADD_MOVE(MV_WT, 0, 0, empty, &rs[e]);
    }
    return 1;
}

static inline void fill_from_reserve(const Search *s, const Pos *p, Pos *c, int i, int cards) {
    if (c->plen[i] == 0 && s->autofill && c->nr) {
        pile_push(s, p, c, i, s->R[c->nr - 1], cards);
        c->nr--;
    }
}

/* Draw/redeal to waste position m->pos and take its top card; returns the card. */
static inline int take_waste(const Search *s, const Pos *p, Pos *c, const Move *m, int cards) {
    int card = p->talon[m->pos - 1];
    talon_remove(s, p, c, m->pos - 1, cards);
    c->w = (uint8_t)(m->pos - 1);
    c->rl = m->rl2;
    return card;
}

/* Apply a step to a copy c of the position p; returns the card moved.  With
 * `cards` 0 only the header of c is written (Pos up to its talon: the compact
 * codes, lengths, counts and foundations), which is all that make_key's
 * compact form and heuristic() read: filter_seen keys each child that way,
 * without copying its card arrays. */
static inline __attribute__((always_inline)) int apply_to(const Search *s, const Pos *p, const Move *m, Pos *c, int cards) {
    memcpy(c, p, cards ? sizeof(Pos) : offsetof(Pos, talon));
    int card = 0;
    switch (m->kind) {
    case MV_RF:
        card = s->R[c->nr - 1];
        c->nr--;
        c->found[s->suit[card]]++;
        break;
    case MV_TF:
        card = p->pile[m->src][p->plen[m->src] - 1];
        pile_cut(s, c, m->src, c->plen[m->src] - 1);
        c->found[s->suit[card]]++;
        fill_from_reserve(s, p, c, m->src, cards);
        break;
    case MV_WF:
        card = take_waste(s, p, c, m, cards);
        c->found[s->suit[card]]++;
        break;
    case MV_RT:
        card = s->R[c->nr - 1];
        c->nr--;
        pile_push(s, p, c, m->dest, card, cards);
        break;
    case MV_TT: {
        card = p->pile[m->src][m->k];
        pile_move_run(s, p, c, m->src, m->k, m->dest, cards);
        fill_from_reserve(s, p, c, m->src, cards);
        break;
    }
    case MV_WT:
        card = take_waste(s, p, c, m, cards);
        pile_push(s, p, c, m->dest, card, cards);
        break;
    }
    return card;
}

static int apply(const Search *s, const Pos *p, const Move *m, Pos *c) { return apply_to(s, p, m, c, 1); }

/* Move categories, and their class (tried highest first) under each of the
 * three move orders (solver.py, "Move order"). */
enum { CAT_RF, CAT_RT, CAT_TF_FILL, CAT_TF, CAT_TT_FILL, CAT_TT, CAT_WT, CAT_WF };
static const uint8_t ORDER_CLASS[3][8] = {
    /*          RF RT TFf TF TTf TT WT WF */
    /* 0 */ {4, 4, 3, 2, 3, 1, 1, 0}, /* standard */
    /* 1 */ {4, 2, 3, 3, 1, 1, 0, 3}, /* foundation moves first */
    /* 2 */ {4, 4, 3, 0, 3, 1, 1, 0}, /* foundation moves last */
};

static inline int move_cat(const Search *s, const Pos *p, const Move *m) {
    int fillable = s->autofill && p->nr > 0;
    switch (m->kind) {
    case MV_RF:
        return CAT_RF;
    case MV_RT:
        return CAT_RT;
    case MV_TF:
        return fillable && p->plen[m->src] == 1 ? CAT_TF_FILL : CAT_TF;
    case MV_TT:
        return fillable && m->k == 0 ? CAT_TT_FILL : CAT_TT;
    case MV_WT:
        return CAT_WT;
    default:
        return CAT_WF;
    }
}

/* xorshift64: the same sequence as solver.py's _XorShift. */
static inline uint64_t next_random(Search *s) {
    uint64_t x = s->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    s->rng = x;
    return x;
}

/* Stable sort of moves[a..b) by class, highest first (scratch: moves[b..2b-a));
 * with a shuffle seed, each class is then shuffled (Fisher-Yates), the highest
 * class first.  Each move's class is looked up once (generate leaves at most
 * 4096 moves), and moves already in order are left where they are. */
static void order_moves(Search *s, const Pos *p, size_t a, size_t b) {
    size_t n = b - a, count[5] = {0}, start[5];
    uint8_t cl[4096];
    const uint8_t *cls = s->classes;
    int sorted = 1;
    for (size_t i = 0; i < n; i++) {
        cl[i] = cls[move_cat(s, p, &s->moves[a + i])];
        count[cl[i]]++;
        if (i && cl[i] > cl[i - 1]) sorted = 0;
    }
    if (!sorted) {
        Move *tmp = s->moves + b;
        size_t at = 0;
        for (int c = 4; c >= 0; c--) {
            start[c] = at;
            at += count[c];
        }
        for (size_t i = 0; i < n; i++) tmp[start[cl[i]]++] = s->moves[a + i];
        memcpy(s->moves + a, tmp, n * sizeof(Move));
    }
    if (s->rng) {
        size_t first = 0;
        for (int c = 4; c >= 0; c--) {
            Move *cm = s->moves + a + first;
            for (size_t i = count[c]; i > 1; i--) {
                size_t j = (size_t)(next_random(s) % i);
                Move t = cm[i - 1];
                cm[i - 1] = cm[j];
                cm[j] = t;
            }
            first += count[c];
        }
    }
}

static int apply(const Search *s, const Pos *p, const Move *m, Pos *c);

/* Move order 4 (solver.py, "Move order"): the score of a child position,
 * 8 * (2 * cards home - reserve cards - 2 * waste cards), plus a jitter drawn
 * from 0..HEURISTIC_JITTER when the search shuffles (restarts). */
#define HEURISTIC_JITTER 64
static inline int16_t heuristic(Search *s, const Pos *c) {
    int home = c->found[0] + c->found[1] + c->found[2] + c->found[3];
    int score = 8 * (2 * home - (int)c->nr - 2 * (int)c->w); /* -936..832 */
    if (s->rng) score += (int)(next_random(s) % (HEURISTIC_JITTER + 1));
    return (int16_t)score;
}

/* Stable sort of moves[a..b) by score, highest first (insertion sort: a
 * node has tens of moves), with their rows of `rows` (row words each) when
 * rows is not NULL. */
static void sort_by_score(Move *mv, size_t a, size_t b, uint64_t *rows, size_t row) {
    uint64_t t_row[KW_MAX + 1];
    for (size_t i = a + 1; i < b; i++) {
        Move t = mv[i];
        size_t j = i;
        while (j > a && mv[j - 1].score < t.score) j--;
        if (j == i) continue;
        memmove(mv + j + 1, mv + j, (i - j) * sizeof(Move));
        mv[j] = t;
        if (rows) {
            memcpy(t_row, rows + i * row, row * 8);
            memmove(rows + (j + 1) * row, rows + j * row, (i - j) * row * 8);
            memcpy(rows + j * row, t_row, row * 8);
        }
    }
}

/* Room in kbuf for `need` words; 0 when the doubled buffer would not fit
 * under the memory cap (never the cap's last bytes, which the table needs
 * more: a frame without rows keys its children one by one). */
static int grow_rows(Search *s, size_t need) {
    return grow_to(s, (void **)&s->kbuf, &s->kbuf_cap, need, 8, 0);
}

/* Mark the moves whose child is already in the table (and, under order 4,
 * score each child and sort the moves by score).  Same verdicts and node
 * counts as looking each child up when its turn comes (the table only
 * grows), but the keys of all children are computed first and their slots
 * prefetched, so the table's cache misses overlap instead of following one
 * another; each key and hash stays in its move's row of kbuf for run_loop. */
static void filter_seen(Search *s, const Pos *p, size_t a, size_t b) {
    size_t row = (size_t)s->kw + 1;
    int scored = s->order == 4;
    Pos child;
    if (!grow_rows(s, b * row)) {
        for (size_t i = a; i < b; i++) { /* look up one by one */
            s->moves[i].seen = 2;
            if (scored) {
                apply(s, p, &s->moves[i], &child);
                s->moves[i].score = heuristic(s, &child);
            }
        }
        if (scored) sort_by_score(s->moves, a, b, NULL, 0);
        return;
    }
    for (size_t i = a; i < b; i++) {
        uint64_t *k = s->kbuf + i * row;
        if (s->compact)
            apply_to(s, p, &s->moves[i], &child, 0);
        else
            apply(s, p, &s->moves[i], &child);
        if (scored) s->moves[i].score = heuristic(s, &child);
        make_key(s, &child, k);
        k[row - 1] = hash_key(s, k);
        __builtin_prefetch(slot_of(s, k[row - 1]));
        if (s->ref && s->ref->cap) __builtin_prefetch(slot_of(s->ref, k[row - 1]));
    }
    Frame *f = &s->frames[s->nframes - 1];
    for (size_t i = a; i < b; i++) {
        const uint64_t *k = s->kbuf + i * row;
        const uint64_t *slot = table_find(s, k, k[row - 1]);
        int seen = slot != NULL;
        if (seen && s->dead_sets) low_link(s, f, slot);
        if (!seen) seen = dead_in_ref(s, k, k[row - 1]);
        s->moves[i].seen = (uint8_t)seen;
    }
    if (scored) sort_by_score(s->moves, a, b, s->kbuf, row);
}

/* ------------------------------------------------------------------ search */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Enter the frame on top of the stack: count, budgets, safe moves, win, moves. */
static void enter(Search *s) {
    s->nodes++;
    if (s->max_nodes >= 0 && s->nodes > s->max_nodes) {
        s->status = ST_NODES;
        return;
    }
    if ((s->nodes & 1023) == 1) {
        if (s->has_deadline && now() > s->deadline) {
            s->status = ST_TIME;
            return;
        }
        if ((s->nodes & 65535) == 1) {
            PyEval_RestoreThread(s->tstate);
            int sig = PyErr_CheckSignals();
            s->tstate = PyEval_SaveThread();
            if (sig < 0) {
                s->status = ST_INTERRUPT;
                return;
            }
        }
    }
    Frame *f = &s->frames[s->nframes - 1];
    Pos *p = &f->pos;
    if (s->safe_auto && !autoplay(s, p)) return;
    if (!p->nr && !p->tl && !(p->plen[0] | p->plen[1] | p->plen[2] | p->plen[3])) {
        s->status = ST_WON;
        return;
    }
    f->mv_start = f->mv_next = s->nmoves;
    if (!generate(s, p)) return;
    f = &s->frames[s->nframes - 1]; /* moves may have been reallocated, frames not */
    f->mv_end = s->nmoves;
    order_moves(s, p, f->mv_start, f->mv_end);
    filter_seen(s, p, f->mv_start, f->mv_end);
}

/* Start a search at its root: the root's key in the table, its frame entered. */
static void run_begin(Search *s) {
    uint64_t key[KW_MAX];
    uint64_t *slot;
    make_key(s, &s->root, key);
    int added = number_room(s) ? table_add(s, key, &slot) : -1;
    if (added < 0) {
        s->status = ST_MEMORY;
        return;
    }
    if (added) reached(s, slot);
    if (!grow(s, (void **)&s->frames, &s->frames_cap, 1, sizeof(Frame))) {
        s->status = ST_MEMORY;
        return;
    }
    s->nframes = 1;
    s->frames[0].pos = s->root;
    s->frames[0].path_mark = 0;
    frame_numbered(s, &s->frames[0]);
    enter(s);
}

/* Run the depth-first search until it is won, lost or out of a budget. */
static void run_loop(Search *s) {
    uint64_t key[KW_MAX];
    while (s->status == ST_RUNNING) {
        if (!s->nframes) {
            s->status = ST_LOST;
            return;
        }
        Frame *f = &s->frames[s->nframes - 1];
        if (f->mv_next == f->mv_end) {
            s->nmoves = f->mv_start;
            s->npath = f->path_mark;
            if (s->dead_sets) leave(s);
            s->nframes--;
            continue;
        }
        size_t mi = f->mv_next++;
        const Move *m = &s->moves[mi];
        if (m->seen == 1) continue;
        Pos child;
        int card = apply(s, &f->pos, m, &child);
        const uint64_t *k;
        uint64_t h;
        if (m->seen == 2) { /* not looked up: keyed here */
            make_key(s, &child, key);
            k = key;
            h = hash_key(s, key);
            if (dead_in_ref(s, key, h)) continue;
        } else { /* filter_seen's row */
            k = s->kbuf + mi * ((size_t)s->kw + 1);
            h = k[s->kw];
        }
        uint64_t *slot;
        int added = number_room(s) ? table_add_h(s, k, h, &slot) : -1;
        if (added < 0) {
            s->status = ST_MEMORY;
            return;
        }
        if (!added) {
            if (s->dead_sets) low_link(s, f, slot);
            continue;
        }
        reached(s, slot);
        size_t mark = s->npath;
        int k1 = m->k1, redeal = m->redeal, k2 = m->k2, dest = m->dest;
        if (!grow(s, (void **)&s->frames, &s->frames_cap, s->nframes + 1, sizeof(Frame))) {
            s->status = ST_MEMORY;
            return;
        }
        if (!push_step(s, k1, redeal, k2, card, dest)) return;
        Frame *nf = &s->frames[s->nframes++];
        nf->pos = child;
        nf->path_mark = mark;
        frame_numbered(s, nf);
        enter(s);
    }
}

/*
 * Run a search for at most `more_nodes` more positions (< 0: no limit) and
 * `seconds` of wall time (< 0: no limit).  A search that ran out of nodes or
 * time is paused on the frame it had not yet entered (counted in `nodes`, not
 * expanded): it is entered again, counted once, when the search continues, so
 * a search continued in slices takes exactly the steps of one search with
 * the sum of the slices' node budgets.  Won, lost, out of memory and
 * interrupted are final.
 */
static void advance(Search *s, long long more_nodes, double seconds) {
    int paused = s->status == ST_NODES || s->status == ST_TIME;
    if (s->started && !paused) return;
    long long expanded = s->started ? s->nodes - 1 : 0;
    s->max_nodes = more_nodes < 0 ? -1 : expanded + more_nodes;
    s->has_deadline = seconds >= 0;
    if (s->has_deadline) s->deadline = now() + seconds;
    s->status = ST_RUNNING;
    if (!s->started) {
        s->started = 1;
        run_begin(s);
    } else {
        s->nodes--; /* the paused frame is entered (and counted) again */
        enter(s);
    }
    run_loop(s);
}

static void search_free(Search *s) {
    table_free(s->slots, s->cap * (size_t)s->sw * 8);
    free(s->done);
    free(s->tstack);
    free(s->kbuf);
    free(s->frames);
    free(s->moves);
    free(s->path);
}

/* ---------------------------------------------------------------- python */

static const char RANK_CH[] = "A23456789TJQK";
static const char SUIT_CH[] = "CDHS";

static int append_str(PyObject *list, const char *text) {
    PyObject *o = PyUnicode_FromString(text);
    if (!o) return -1;
    int r = PyList_Append(list, o);
    Py_DECREF(o);
    return r;
}

static PyObject *path_to_list(const Search *s) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (size_t i = 0; i < s->npath; i++) {
        const Step *st = &s->path[i];
        for (int k = 0; k < st->k1; k++)
            if (append_str(out, "draw") < 0) goto fail;
        if (st->redeal && append_str(out, "redeal") < 0) goto fail;
        for (int k = 0; k < st->k2; k++)
            if (append_str(out, "draw") < 0) goto fail;
        char buf[8];
        buf[0] = RANK_CH[st->card % 13];
        buf[1] = SUIT_CH[st->card / 13];
        buf[2] = '>';
        if (st->dest == FOUND_DEST) {
            buf[3] = 'f';
            buf[4] = 0;
        } else {
            buf[3] = 't';
            buf[4] = (char)('1' + st->dest);
            buf[5] = 0;
        }
        if (append_str(out, buf) < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static int read_cards(PyObject *obj, uint8_t *out, int *n, uint64_t *used, const char *what) {
    if (!PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be bytes", what);
        return -1;
    }
    Py_ssize_t len = PyBytes_GET_SIZE(obj);
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(obj);
    if (len > NC) {
        PyErr_Format(PyExc_ValueError, "%s holds more than 52 cards", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (b[i] >= NC || ((*used >> b[i]) & 1)) {
            PyErr_Format(PyExc_ValueError, "%s: bad or repeated card %d", what, (int)b[i]);
            return -1;
        }
        *used |= 1ULL << b[i];
        out[i] = b[i];
    }
    *n = (int)len;
    return 0;
}

#define PROBLEM_DOC                                                                              \
    "reserve, the four piles (a tuple) and talon (waste bottom..top then stock in\n"            \
    "draw order) are bytes of card numbers; w: waste length; rl: redeals left (-1\n"            \
    "unlimited); found: bytes of the four foundation counts; fits: the 52*52 build\n"           \
    "table; mode: 0 top-or-whole, 1 whole-pile, 2 any-run; max_bytes: memory cap of\n"          \
    "the table and stacks (< 0: none).  order: move order 0 standard, 1 foundation\n"           \
    "moves first, 2 foundation moves last, 3 a class table drawn from the shuffle\n"            \
    "seed, 4 heuristic (children by score, solver.py 'Move order'); shuffle: 0, or\n"           \
    "a seed (below 2**64) for shuffling the moves within each class and, under\n"               \
    "order 4, the score jitter (required by order 3).\n"

#define RESULT_DOC                                                                               \
    "result is 'won', 'lost' or 'unknown'; moves the winning line (won only, else\n"            \
    "[]); nodes the positions counted so far (a search that ran out counts the one\n"           \
    "it was about to expand); reason '' or what ran out: 'nodes', 'time' or 'memory'.\n"

PyDoc_STRVAR(begin_doc,
             "begin(reserve, piles, talon, w, rl, found, fits, base, draw, autofill, empty_any,\n"
             "      mode, safe_auto, max_bytes, order, shuffle, dead_sets=False) -> search\n\n"
             "A search of the given position, not yet run (an opaque handle for advance();\n"
             "its memory is freed with the handle).  dead_sets: keep Tarjan's bookkeeping\n"
             "so that import_dead() and refer() can use this search's complete components\n"
             "(a bit per position, and a word per table slot unless the key leaves 32 of its\n"
             "bits free, as it does for the presets of RULES.md 4).  " PROBLEM_DOC);

PyDoc_STRVAR(advance_doc,
             "advance(search, max_nodes, max_seconds) -> (result, moves, nodes, reason, bytes)\n\n"
             "Run a search from begin() for at most max_nodes more positions and max_seconds\n"
             "of wall time (< 0: no limit).  A search that ran out of nodes or time can be\n"
             "advanced again and goes on where it stopped: advancing in slices takes the\n"
             "steps of one search with the sum of the slices' node budgets.  A won, lost or\n"
             "out-of-memory search gives the same answer again.  bytes: memory the search\n"
             "holds (table and stacks).  RuntimeError: the search was interrupted (Ctrl-C)\n"
             "in an earlier advance, or is running in another thread.  " RESULT_DOC);

PyDoc_STRVAR(import_dead_doc,
             "import_dead(into, source) -> int\n\n"
             "Add to the table of search `into` every position of a complete strongly\n"
             "connected component of search `source` (begun with dead_sets, of the same\n"
             "position): positions proved lost, which `into` then never expands\n"
             "(solver.py, \"Dead sets\").  Returns how many were new to `into`; stops early\n"
             "when `into`'s memory cap is reached.  ValueError: not two searches of one\n"
             "position, or `source` without dead sets, or either running.\n");

PyDoc_STRVAR(refer_doc,
             "refer(search, ref) -> None\n\n"
             "Make `search` (begun with dead_sets, not yet advanced) skip every position\n"
             "that is dead in `ref` (a search of the same position with dead_sets, kept\n"
             "alive and not advanced while `search` runs): positions in its complete\n"
             "strongly connected components, or imported (solver.py, \"Dead sets\").\n"
             "ValueError: not two such searches.\n");

PyDoc_STRVAR(end_dead_sets_doc,
             "end_dead_sets(search) -> None\n\n"
             "Stop the Tarjan bookkeeping of a search begun with dead_sets, when nothing\n"
             "will read its dead set again; its steps do not change.  It can then no\n"
             "longer be the source of import_dead() or the ref of refer().\n");

PyDoc_STRVAR(release_tables_doc,
             "release_tables() -> bytes\n\n"
             "Give back to the system the freed tables this process keeps for reuse (see\n"
             "table_alloc in _solver.c); the bytes given back.  Tables of searches still\n"
             "alive are not touched.\n");

#define SEARCH_CAPSULE "games.engine._solver.Search"

/* A Search for the given problem, not yet run; NULL with an exception set. */
static Search *new_search(PyObject *reserve, PyObject *piles, PyObject *talon, int w, int rl,
                          PyObject *found, PyObject *fits, int base, int draw, int autofill,
                          int empty_any, int mode, int safe_auto, long long max_bytes, int order,
                          unsigned long long shuffle, int dead_sets) {
    if (PyTuple_GET_SIZE(piles) != 4 || PyBytes_GET_SIZE(found) != 4 ||
        PyBytes_GET_SIZE(fits) != NC * NC || base < 0 || base > 12 || draw < 1 || draw > NC ||
        mode < 0 || mode > 2 || rl < -1 || rl > 65000 || order < 0 || order > 4 || (order == 3 && !shuffle)) {
        PyErr_SetString(PyExc_ValueError, "bad solver arguments");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    Pos *root = &s->root;
    uint64_t used = 0;
    int n;
    if (read_cards(reserve, s->R, &n, &used, "reserve") < 0) goto error;
    root->nr = (uint8_t)n;
    for (int i = 0; i < 4; i++) {
        if (read_cards(PyTuple_GET_ITEM(piles, i), root->pile[i], &n, &used, "pile") < 0)
            goto error;
        root->plen[i] = (uint8_t)n;
    }
    if (read_cards(talon, root->talon, &n, &used, "talon") < 0) goto error;
    root->tl = (uint8_t)n;
    if (w < 0 || w > root->tl) {
        PyErr_SetString(PyExc_ValueError, "bad waste length");
        goto error;
    }
    root->w = (uint8_t)w;
    root->rl = rl;
    const uint8_t *fb = (const uint8_t *)PyBytes_AS_STRING(found);
    for (int i = 0; i < 4; i++) {
        if (fb[i] > 13) {
            PyErr_SetString(PyExc_ValueError, "bad foundation count");
            goto error;
        }
        root->found[i] = fb[i];
    }
    memcpy(s->fits, PyBytes_AS_STRING(fits), NC * NC);
    s->draw = draw;
    s->autofill = autofill != 0;
    s->empty_any = empty_any != 0;
    s->mode = mode;
    s->safe_auto = safe_auto != 0;
    s->order = order;
    s->rng = (uint64_t)shuffle;
    if (order == 3) { /* a random class for each category; the reserve top home stays first */
        for (int i = 0; i < 8; i++) s->classes[i] = (uint8_t)(next_random(s) % 5);
        s->classes[CAT_RF] = 4;
    } else { /* order 4 breaks ties between equal scores by the standard order */
        memcpy(s->classes, ORDER_CLASS[order == 4 ? 0 : order], 8);
    }
    for (int c = 0; c < NC; c++) {
        s->suit[c] = (uint8_t)(c / 13);
        s->rel[c] = (uint8_t)((c % 13 - base + 13) % 13);
    }
    for (int c = 0; c < NC; c++) {
        int k = 0;
        for (int d = 0; d < NC; d++) {
            if (s->fits[d * NC + c]) {
                s->needs_suit[c][k] = s->suit[d];
                s->needs_rel[c][k] = s->rel[d];
                s->needs_card[c][k] = (uint8_t)d;
                k++;
            }
        }
        s->needs_n[c] = (uint8_t)k;
    }
    for (int i = 0; i < root->tl; i++) s->rootidx[root->talon[i]] = (uint8_t)i;
    s->tl_root = root->tl;
    /* compact keys when every pile is a chain under the build rule (make_key) */
    int most = 0;
    for (int t = 0; t < NC; t++) {
        int k = 0;
        for (int d = 0; d < NC; d++)
            if (s->fits[d * NC + t]) {
                s->cidx[d * NC + t] = (uint8_t)k++;
                s->fit_on[t] |= 1ULL << d;
            }
        if (k > most) most = k;
    }
    s->chains = 1;
    for (int i = 0; i < 4; i++)
        for (int k = 1; k < root->plen[i]; k++)
            if (!s->fits[root->pile[i][k] * NC + root->pile[i][k - 1]]) s->chains = 0;
    s->compact = s->chains; /* every move keeps the piles chains */
    while ((1 << s->cbits) < most) s->cbits++;
    if (s->cbits > 2) s->compact = 0; /* a pile code must fit in 128 bits */
    for (int i = 0; i < root->tl; i++) root->tmask |= 1ULL << i;
    if (s->compact) {
        for (int i = 0; i < 4; i++) {
            int n = root->plen[i];
            root->plen[i] = 0;
            for (int k = 0; k < n; k++) pile_push(s, root, root, i, root->pile[i][k], 1);
        }
    }
    /* each field of make_key as wide as the root needs: nr and rl never grow,
     * and w never exceeds the talon, which never grows.
     * `bits` bounds what make_key writes (a pile: 6 bits of length, then 6 for
     * its bottom card and cbits for each card above, or 6 per card), and the
     * visit number's place (vin) relies on it: key_eq ignores the bits above. */
    s->nrbits = bit_width((uint64_t)root->nr);
    s->wbits = bit_width((uint64_t)root->tl);
    s->rlbits = bit_width((uint64_t)(root->rl + 1));
    s->sh_w = 1 + s->nrbits;
    s->sh_rl = s->sh_w + s->wbits;
    s->sh_t = s->sh_rl + s->rlbits;
    for (int w = 0; w <= NC; w++) s->w_whole[w] = w % s->draw == 0;
    int bits = 1 + s->nrbits + s->wbits + s->rlbits + s->tl_root + 24 +
               (s->compact ? 24 + s->cbits * NC : 6 * NC);
    s->kw = (bits + 63) / 64;
    s->max_bytes = max_bytes < 0 ? (size_t)-1 : (size_t)max_bytes;
    s->cap = 1024;
    s->dead_sets = dead_sets != 0;
    s->vin = s->dead_sets && s->kw * 64 - bits >= 32;
    s->kmask = s->vin ? 0xFFFFFFFFULL : ~0ULL;
    s->sw = s->kw + (s->dead_sets && !s->vin);
    if (mem_total(s) > s->max_bytes) {
        s->started = 1; /* a cap below one empty table: out of memory before the root */
        s->status = ST_MEMORY;
        s->cap = 0; /* no table allocated: it holds nothing */
        return s;
    }
    s->slots = table_alloc(s->cap * (size_t)s->sw * 8);
    if (!s->slots) {
        PyErr_NoMemory();
        goto error;
    }
    if (s->dead_sets) {
        s->done = calloc(16, 8);
        if (!s->done) {
            PyErr_NoMemory();
            goto error;
        }
        s->done_cap = 16;
        set_done(s, 0); /* visit number 0: keys imported as dead */
    }
    return s;
error:
    search_free(s);
    free(s);
    return NULL;
}

static void capsule_free(PyObject *capsule) {
    Search *s = PyCapsule_GetPointer(capsule, SEARCH_CAPSULE);
    if (s) {
        search_free(s);
        free(s);
    }
}

/* The (result, moves, nodes, reason, bytes) tuple of a search after advance(). */
static PyObject *outcome(const Search *s) {
    Py_ssize_t held = (Py_ssize_t)mem_total(s);
    if (s->status == ST_WON) {
        PyObject *moves = path_to_list(s);
        if (!moves) return NULL;
        return Py_BuildValue("(sNLsn)", "won", moves, s->nodes, "", held);
    }
    if (s->status == ST_LOST) return Py_BuildValue("(s[]Lsn)", "lost", s->nodes, "", held);
    const char *why = s->status == ST_NODES ? "nodes" : s->status == ST_TIME ? "time" : "memory";
    return Py_BuildValue("(s[]Lsn)", "unknown", s->nodes, why, held);
}

/* advance() with the GIL released; 0, or -1 with the exception of an interrupt set. */
static int advance_released(Search *s, long long max_nodes, double max_seconds) {
    s->tstate = PyEval_SaveThread();
    advance(s, max_nodes, max_seconds);
    PyEval_RestoreThread(s->tstate);
    return s->status == ST_INTERRUPT ? -1 : 0; /* exception set by PyErr_CheckSignals */
}

static PyObject *py_begin(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *reserve, *piles, *talon, *found, *fits;
    int w, rl, base, draw, autofill, empty_any, mode, safe_auto;
    long long max_bytes;
    int order, dead_sets = 0;
    unsigned long long shuffle;
    if (!PyArg_ParseTuple(args, "O!O!O!iiO!O!iiiiiiLiK|p", &PyBytes_Type, &reserve,
                          &PyTuple_Type, &piles, &PyBytes_Type, &talon, &w, &rl, &PyBytes_Type,
                          &found, &PyBytes_Type, &fits, &base, &draw, &autofill, &empty_any,
                          &mode, &safe_auto, &max_bytes, &order, &shuffle, &dead_sets))
        return NULL;
    Search *s = new_search(reserve, piles, talon, w, rl, found, fits, base, draw, autofill,
                           empty_any, mode, safe_auto, max_bytes, order, shuffle, dead_sets);
    if (!s) return NULL;
    PyObject *capsule = PyCapsule_New(s, SEARCH_CAPSULE, capsule_free);
    if (!capsule) {
        search_free(s);
        free(s);
    }
    return capsule;
}

static PyObject *py_advance(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule;
    long long max_nodes;
    double max_seconds;
    if (!PyArg_ParseTuple(args, "OLd", &capsule, &max_nodes, &max_seconds)) return NULL;
    Search *s = PyCapsule_GetPointer(capsule, SEARCH_CAPSULE);
    if (!s) return NULL;
    if (s->status == ST_INTERRUPT) {
        PyErr_SetString(PyExc_RuntimeError, "this search was interrupted and cannot go on");
        return NULL;
    }
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return NULL;
    }
    s->busy = 1;
    int failed = advance_released(s, max_nodes, max_seconds) < 0;
    s->busy = 0;
    return failed ? NULL : outcome(s);
}

/* The two searches of a (search, search) argument tuple, in *a and *b; 0 with
 * an exception set when they are not two distinct searches of one position
 * (same root, same key form), neither of them running. */
static int two_searches(PyObject *args, Search **a, Search **b) {
    PyObject *ca, *cb;
    if (!PyArg_ParseTuple(args, "OO", &ca, &cb)) return 0;
    if (!(*a = PyCapsule_GetPointer(ca, SEARCH_CAPSULE))) return 0;
    if (!(*b = PyCapsule_GetPointer(cb, SEARCH_CAPSULE))) return 0;
    if (*a == *b || (*a)->busy || (*b)->busy || (*a)->kw != (*b)->kw ||
        memcmp(&(*a)->root, &(*b)->root, sizeof(Pos)) != 0) {
        PyErr_SetString(PyExc_ValueError, "needs two searches of one position, neither running");
        return 0;
    }
    return 1;
}

/* refer(search, ref): the search (not yet begun, with dead sets) skips every
 * key that is dead in `ref`, a paused search of the same position with dead
 * sets; `ref` must stay alive and paused while `search` runs (solver.py keeps
 * it). */
static PyObject *py_refer(PyObject *self, PyObject *args) {
    (void)self;
    Search *s, *r;
    if (!two_searches(args, &s, &r)) return NULL;
    if (!s->dead_sets || !r->dead_sets || s->started) {
        PyErr_SetString(PyExc_ValueError, "refer needs two searches with dead sets, the first "
                                          "not yet begun");
        return NULL;
    }
    s->ref = r;
    Py_RETURN_NONE;
}

/* import_dead(into, source): add every key of a complete component of
 * `source` (a search with dead sets) to the table of `into` (a search of the
 * same position), as imported dead keys; the number added.  A key `into`
 * already holds is marked dead there too (its visit number done), as
 * solver.py's import does.  Stops early, and
 * quietly, when `into`'s memory cap is reached (a key left out only costs
 * work). */
static PyObject *py_import_dead(PyObject *self, PyObject *args) {
    (void)self;
    Search *into, *src;
    if (!two_searches(args, &into, &src)) return NULL;
    if (!src->dead_sets) {
        PyErr_SetString(PyExc_ValueError, "import_dead needs a source with dead sets");
        return NULL;
    }
    size_t added = 0, sw = (size_t)src->sw, dead = 0;
    if (!into->cap) return PyLong_FromSize_t(0);
    for (size_t i = 0; i < src->cap; i++) dead += slot_dead(src, src->slots + i * sw);
    /* room for them all at once (one rehash, not one per doubling), if the cap allows */
    while ((into->count + dead) * 2 > into->cap && table_grow(into)) {
    }
    /* in batches: the hashes first and their slots prefetched, then the inserts */
    enum { BATCH = 32 };
    uint64_t batch[BATCH][KW_MAX]; /* the keys alone (a slot may hold a visit number) */
    uint64_t hs[BATCH];
    size_t kw = (size_t)src->kw;
    size_t i = 0;
    int full = 0;
    while (i < src->cap && !full) {
        int n = 0;
        for (; i < src->cap && n < BATCH; i++) {
            const uint64_t *k = src->slots + i * sw;
            if (!slot_dead(src, k)) continue;
            memcpy(batch[n], k, kw * 8);
            batch[n][kw - 1] &= src->kmask;
            hs[n] = hash_key(into, batch[n]);
            __builtin_prefetch(slot_of(into, hs[n]));
            n++;
        }
        for (int j = 0; j < n; j++) {
            uint64_t *slot;
            int r = table_add_h(into, batch[j], hs[j], &slot);
            if (r < 0) {
                full = 1;
                break;
            }
            added += (size_t)r;
            if (into->dead_sets) { /* dead, whether new here or already numbered */
                if (r)
                    set_visit(into, slot, 0);
                else
                    set_done(into, visit_of(into, slot));
            }
        }
    }
    return PyLong_FromSize_t(added);
}

/* end_dead_sets(search): stop the search's Tarjan bookkeeping (nothing will read
 * its dead set again: solver.py's first search once the restarts are over).
 * Its steps do not change; its table keeps its layout, and no key of it may be
 * taken as dead after this (import_dead and refer refuse it). */
static PyObject *py_end_dead_sets(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Search *s = PyCapsule_GetPointer(capsule, SEARCH_CAPSULE);
    if (!s) return NULL;
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return NULL;
    }
    s->dead_sets = 0;
    Py_RETURN_NONE;
}

static PyObject *py_release_tables(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromSize_t(trim_kept(0, 0));
}

static PyMethodDef methods[] = {
    {"begin", py_begin, METH_VARARGS, begin_doc},
    {"advance", py_advance, METH_VARARGS, advance_doc},
    {"import_dead", py_import_dead, METH_VARARGS, import_dead_doc},
    {"refer", py_refer, METH_VARARGS, refer_doc},
    {"end_dead_sets", py_end_dead_sets, METH_VARARGS, end_dead_sets_doc},
    {"release_tables", py_release_tables, METH_NOARGS, release_tables_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver",
    "C core of games.engine.solver (same search, same prunings; see solver.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver(void) { return PyModule_Create(&module); }
