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
 *  - move order: foundation moves, reserve to tableau, tableau to tableau
 *    (those that empty a pile and auto-fill it first), waste to tableau;
 *  - duplicate moves skipped: a whole pile onto an empty pile, and a card
 *    onto an empty pile other than the first empty one.
 *
 * The transposition table stores every key in full (an arena of byte
 * strings; the open-addressing table holds offsets and a 24-bit hash tag),
 * and membership is decided by a full comparison, so a hash collision can
 * never make a new position look seen (no false "lost").
 *
 * The talon (waste then stock, in draw order) only ever loses cards, so it is
 * always a subsequence of the root talon: in the key it is a bit mask over the
 * root talon's positions, which identifies it exactly.
 *
 * Budgets: nodes (positions expanded), wall time (clock read every 1024
 * nodes) and memory (table + arena + stacks); running out of any gives
 * "unknown", never a crash.  The GIL is released during the search and taken
 * back every 65536 nodes to let Ctrl-C through.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NC 52
#define KEY_MAX 128
#define FOUND_DEST 4

enum { MODE_TOP_OR_WHOLE = 0, MODE_WHOLE_PILE = 1, MODE_ANY_RUN = 2 };
enum { MV_RF, MV_TF, MV_WF, MV_RT, MV_TT, MV_WT };
enum { ST_RUNNING, ST_WON, ST_LOST, ST_NODES, ST_TIME, ST_MEMORY, ST_INTERRUPT };

typedef struct {
    int32_t rl;          /* redeals left, -1 unlimited */
    uint8_t nr, w, tl;   /* reserve count, waste length, talon length */
    uint8_t found[4];    /* cards home per suit */
    uint8_t plen[4];
    uint8_t talon[NC];   /* waste bottom..top, then stock next..last */
    uint8_t pile[4][NC]; /* bottom..top, real order t1..t4 */
} Pos;

typedef struct {
    uint8_t kind, src, k, dest; /* dest 0..3 tableau, FOUND_DEST foundation */
    uint8_t pos, k1, redeal, k2;
    int32_t rl2;
} Move;

typedef struct {
    uint8_t k1, redeal, k2, card, dest;
} Step;

typedef struct {
    Pos pos;
    size_t mv_start, mv_next, mv_end;
    size_t path_mark;
} Frame;

typedef struct {
    uint8_t pos, k1, redeal, k2;
    int32_t rl2;
} Reach;

typedef struct {
    /* problem */
    uint8_t R[NC];
    int draw, autofill, empty_any, mode, safe_auto;
    uint8_t fits[NC * NC];
    uint8_t rel[NC], suit[NC];
    uint8_t needs_n[NC], needs_suit[NC][NC], needs_rel[NC][NC];
    uint8_t rootidx[NC];
    int maskbytes;
    /* transposition table */
    uint64_t *slots;
    size_t cap, count;
    uint8_t *arena;
    size_t arena_len, arena_cap;
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
} Search;

/* ------------------------------------------------------------------ memory */

static size_t mem_total(const Search *s) {
    return s->cap * sizeof(uint64_t) + s->arena_cap + s->frames_cap * sizeof(Frame) +
           s->moves_cap * sizeof(Move) + s->path_cap * sizeof(Step);
}

/* Grow a buffer to hold at least `need` items (doubling); 0 on memory cap/failure. */
static int grow(Search *s, void **buf, size_t *cap, size_t need, size_t item) {
    if (need <= *cap) return 1;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) ncap *= 2;
    size_t other = mem_total(s) - *cap * item;
    if (other + ncap * item > s->max_bytes) {
        /* take what is left under the cap, if that is enough */
        if (s->max_bytes < other) return 0;
        ncap = (s->max_bytes - other) / item;
        if (ncap < need) return 0;
    }
    void *nb = realloc(*buf, ncap * item);
    if (!nb) return 0;
    *buf = nb;
    *cap = ncap;
    return 1;
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

static uint64_t hash_key(const uint8_t *k, int len) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)len;
    int i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t v;
        memcpy(&v, k + i, 8);
        h = mix64(h ^ v) + 0x9E3779B97F4A7C15ULL;
    }
    if (i < len) {
        uint64_t v = 0;
        memcpy(&v, k + i, (size_t)(len - i));
        h = mix64(h ^ v);
    }
    return mix64(h);
}

#define OFF_BITS 40
#define OFF_MASK ((1ULL << OFF_BITS) - 1)

static void table_put_slot(uint64_t *slots, size_t cap, uint64_t h, uint64_t entry) {
    size_t mask = cap - 1, i = (size_t)h & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = entry;
}

/* Double the table (rehash from the arena); 0 when the memory cap forbids it. */
static int table_grow(Search *s) {
    size_t ncap = s->cap * 2;
    if (mem_total(s) + ncap * sizeof(uint64_t) > s->max_bytes) return 0;
    uint64_t *ns = calloc(ncap, sizeof(uint64_t));
    if (!ns) return 0;
    for (size_t i = 0; i < s->cap; i++) {
        uint64_t e = s->slots[i];
        if (!e) continue;
        const uint8_t *k = s->arena + ((e & OFF_MASK) - 1);
        table_put_slot(ns, ncap, hash_key(k + 1, k[0]), e);
    }
    free(s->slots);
    s->slots = ns;
    s->cap = ncap;
    return 1;
}

/* 1: added (new position), 0: already present, -1: memory cap reached. */
static int table_add(Search *s, const uint8_t *key, int len) {
    if ((s->count + 1) * 2 > s->cap) {
        /* grow at load 1/2; when the cap forbids it, fill on up to 7/8 */
        if (!table_grow(s) && (s->count + 1) * 8 > s->cap * 7) return -1;
    }
    uint64_t h = hash_key(key, len);
    uint64_t tag = h >> OFF_BITS;
    size_t mask = s->cap - 1, i = (size_t)h & mask;
    for (;;) {
        uint64_t e = s->slots[i];
        if (!e) break;
        if ((e >> OFF_BITS) == tag) {
            const uint8_t *k = s->arena + ((e & OFF_MASK) - 1);
            if (k[0] == len && memcmp(k + 1, key, (size_t)len) == 0) return 0;
        }
        i = (i + 1) & mask;
    }
    size_t off = s->arena_len;
    if (!grow(s, (void **)&s->arena, &s->arena_cap, off + (size_t)len + 1, 1)) return -1;
    s->arena[off] = (uint8_t)len;
    memcpy(s->arena + off + 1, key, (size_t)len);
    s->arena_len = off + (size_t)len + 1;
    s->slots[i] = (tag << OFF_BITS) | (uint64_t)(off + 1);
    s->count++;
    return 1;
}

/* --------------------------------------------------------------------- key */

static inline int pile_cmp(const Pos *p, int a, int b) {
    if (p->plen[a] != p->plen[b]) return (int)p->plen[a] - (int)p->plen[b];
    return memcmp(p->pile[a], p->pile[b], p->plen[a]);
}

/* Canonical key: nr, w (0 when it reaches the same waste positions as a fresh
 * pass, unlimited redeals only), rl, the talon as a mask over the root talon,
 * the four piles sorted (any fixed total order: only equality matters). */
static int make_key(const Search *s, const Pos *p, uint8_t *out) {
    int w = p->w;
    if (p->rl < 0 && w && (s->draw == 1 || w % s->draw == 0 || w == p->tl)) w = 0;
    uint32_t r = (uint32_t)(p->rl + 1);
    int n = 0;
    out[n++] = p->nr;
    out[n++] = (uint8_t)w;
    out[n++] = (uint8_t)(r & 255);
    out[n++] = (uint8_t)(r >> 8);
    uint64_t m = 0;
    for (int i = 0; i < p->tl; i++) m |= 1ULL << s->rootidx[p->talon[i]];
    for (int b = 0; b < s->maskbytes; b++) out[n++] = (uint8_t)(m >> (8 * b));
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
        int q = ord[i];
        out[n++] = p->plen[q];
        memcpy(out + n, p->pile[q], p->plen[q]);
        n += p->plen[q];
    }
    return n;
}

/* ------------------------------------------------------------------- rules */

static inline int next_home(const Search *s, int c, const uint8_t *found) {
    return found[s->suit[c]] == s->rel[c];
}

/* Condition (a): every card that may be built on c is already home. */
static inline int is_safe(const Search *s, int c, const uint8_t *found) {
    int n = s->needs_n[c];
    for (int k = 0; k < n; k++)
        if (found[s->needs_suit[c][k]] <= s->needs_rel[c][k]) return 0;
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

static void talon_remove(Pos *p, int idx) {
    memmove(p->talon + idx, p->talon + idx + 1, (size_t)(p->tl - idx - 1));
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
                p->plen[i]--;
                if (!push_step(s, 0, 0, 0, c, FOUND_DEST)) return 0;
                changed = 1;
            }
        }
        if (p->w && s->draw == 1) {
            int c = p->talon[p->w - 1];
            if (next_home(s, c, p->found) && is_safe(s, c, p->found)) {
                p->found[s->suit[c]]++;
                talon_remove(p, p->w - 1);
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
    /* at most 1+4+2*53 foundation, 5 reserve, 4*53*4 tableau, 106*5 waste moves */
    if (!grow(s, (void **)&s->moves, &s->moves_cap, s->nmoves + 2048, sizeof(Move))) {
        s->status = ST_MEMORY;
        return 0;
    }
    const uint8_t *fits = s->fits;
    int nr = p->nr;
    int can_fill = !s->autofill || nr == 0;
    int empty = -1, tops[4];
    for (int j = 0; j < 4; j++) {
        tops[j] = p->plen[j] ? p->pile[j][p->plen[j] - 1] : -1;
        if (tops[j] < 0 && empty < 0) empty = j;
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
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 4; i++) {
            int n = p->plen[i];
            if (!n) continue;
            int idxs[NC], ni = 0;
            if (s->mode == MODE_ANY_RUN) {
                for (int k = n - 1; k >= 0; k--) idxs[ni++] = k;
            } else if (s->mode == MODE_TOP_OR_WHOLE && n > 1) {
                idxs[ni++] = n - 1;
                idxs[ni++] = 0;
            } else {
                idxs[ni++] = 0;
            }
            for (int x = 0; x < ni; x++) {
                int k = idxs[x];
                int fills = k == 0 && s->autofill && nr > 0;
                if (fills != (pass == 0)) continue;
                int c = p->pile[i][k];
                for (int j = 0; j < 4; j++)
                    if (j != i && tops[j] >= 0 && fits[c * NC + tops[j]])
                        ADD_MOVE(MV_TT, i, k, j, none);
                if (fill_tab && k > 0) ADD_MOVE(MV_TT, i, k, empty, none);
            }
        }
    }
    /* 4. waste to tableau */
    int fill_waste = empty >= 0 && can_fill;
    for (int e = 0; e < nrs; e++) {
        int c = p->talon[rs[e].pos - 1];
        for (int j = 0; j < 4; j++)
            if (tops[j] >= 0 && fits[c * NC + tops[j]]) ADD_MOVE(MV_WT, 0, 0, j, &rs[e]);
        if (fill_waste) ADD_MOVE(MV_WT, 0, 0, empty, &rs[e]);
    }
    return 1;
}

static inline void fill_from_reserve(const Search *s, Pos *c, int i) {
    if (c->plen[i] == 0 && s->autofill && c->nr) {
        c->pile[i][0] = s->R[c->nr - 1];
        c->plen[i] = 1;
        c->nr--;
    }
}

/* Apply a step to a copy of the position; returns the card moved. */
static int apply(const Search *s, const Pos *p, const Move *m, Pos *c) {
    memcpy(c, p, sizeof(Pos));
    int card = 0;
    switch (m->kind) {
    case MV_RF:
        card = s->R[c->nr - 1];
        c->nr--;
        c->found[s->suit[card]]++;
        break;
    case MV_TF:
        card = c->pile[m->src][c->plen[m->src] - 1];
        c->plen[m->src]--;
        c->found[s->suit[card]]++;
        fill_from_reserve(s, c, m->src);
        break;
    case MV_WF:
        card = c->talon[m->pos - 1];
        talon_remove(c, m->pos - 1);
        c->w = (uint8_t)(m->pos - 1);
        c->rl = m->rl2;
        c->found[s->suit[card]]++;
        break;
    case MV_RT:
        card = s->R[c->nr - 1];
        c->nr--;
        c->pile[m->dest][c->plen[m->dest]++] = (uint8_t)card;
        break;
    case MV_TT: {
        int cnt = p->plen[m->src] - m->k;
        card = p->pile[m->src][m->k];
        memcpy(c->pile[m->dest] + c->plen[m->dest], p->pile[m->src] + m->k, (size_t)cnt);
        c->plen[m->dest] = (uint8_t)(c->plen[m->dest] + cnt);
        c->plen[m->src] = m->k;
        fill_from_reserve(s, c, m->src);
        break;
    }
    case MV_WT:
        card = c->talon[m->pos - 1];
        talon_remove(c, m->pos - 1);
        c->w = (uint8_t)(m->pos - 1);
        c->rl = m->rl2;
        c->pile[m->dest][c->plen[m->dest]++] = (uint8_t)card;
        break;
    }
    return card;
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
}

static void run(Search *s, const Pos *root) {
    uint8_t key[KEY_MAX];
    int len = make_key(s, root, key);
    if (table_add(s, key, len) < 0) {
        s->status = ST_MEMORY;
        return;
    }
    if (!grow(s, (void **)&s->frames, &s->frames_cap, 1, sizeof(Frame))) {
        s->status = ST_MEMORY;
        return;
    }
    s->nframes = 1;
    s->frames[0].pos = *root;
    s->frames[0].path_mark = 0;
    enter(s);
    while (s->status == ST_RUNNING) {
        if (!s->nframes) {
            s->status = ST_LOST;
            return;
        }
        Frame *f = &s->frames[s->nframes - 1];
        if (f->mv_next == f->mv_end) {
            s->nmoves = f->mv_start;
            s->npath = f->path_mark;
            s->nframes--;
            continue;
        }
        const Move *m = &s->moves[f->mv_next++];
        Pos child;
        int card = apply(s, &f->pos, m, &child);
        len = make_key(s, &child, key);
        int added = table_add(s, key, len);
        if (added < 0) {
            s->status = ST_MEMORY;
            return;
        }
        if (!added) continue;
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
        enter(s);
    }
}

static void search_free(Search *s) {
    free(s->slots);
    free(s->arena);
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

PyDoc_STRVAR(solve_doc,
             "solve(reserve, piles, talon, w, rl, found, fits, base, draw, autofill, empty_any,\n"
             "      mode, safe_auto, max_nodes, max_seconds, max_bytes)\n"
             "-> (result, moves, nodes, reason)\n\n"
             "The search of games/engine/solver.py in C.  reserve, the four piles (a tuple)\n"
             "and talon (waste bottom..top then stock in draw order) are bytes of card\n"
             "numbers; w: waste length; rl: redeals left (-1 unlimited); found: bytes of\n"
             "the four foundation counts; fits: the 52*52 build table; mode: 0 top-or-whole,\n"
             "1 whole-pile, 2 any-run; max_nodes / max_seconds < 0: no limit; max_bytes:\n"
             "memory cap of the table and stacks.  result is 'won', 'lost' or 'unknown';\n"
             "moves the winning line (won only, else []); reason '' or what ran out:\n"
             "'nodes', 'time' or 'memory'.");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *reserve, *piles, *talon, *found, *fits;
    int w, rl, base, draw, autofill, empty_any, mode, safe_auto;
    long long max_nodes, max_bytes;
    double max_seconds;
    if (!PyArg_ParseTuple(args, "O!O!O!iiO!O!iiiiiiLdL", &PyBytes_Type, &reserve,
                          &PyTuple_Type, &piles, &PyBytes_Type, &talon, &w, &rl, &PyBytes_Type,
                          &found, &PyBytes_Type, &fits, &base, &draw, &autofill, &empty_any,
                          &mode, &safe_auto, &max_nodes, &max_seconds, &max_bytes))
        return NULL;
    if (PyTuple_GET_SIZE(piles) != 4 || PyBytes_GET_SIZE(found) != 4 ||
        PyBytes_GET_SIZE(fits) != NC * NC || base < 0 || base > 12 || draw < 1 || draw > NC ||
        mode < 0 || mode > 2 || rl < -1 || rl > 65000) {
        PyErr_SetString(PyExc_ValueError, "bad solver arguments");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    Pos root;
    memset(&root, 0, sizeof root);
    uint64_t used = 0;
    int n;
    if (read_cards(reserve, s->R, &n, &used, "reserve") < 0) goto error;
    root.nr = (uint8_t)n;
    for (int i = 0; i < 4; i++) {
        if (read_cards(PyTuple_GET_ITEM(piles, i), root.pile[i], &n, &used, "pile") < 0)
            goto error;
        root.plen[i] = (uint8_t)n;
    }
    if (read_cards(talon, root.talon, &n, &used, "talon") < 0) goto error;
    root.tl = (uint8_t)n;
    if (w < 0 || w > root.tl) {
        PyErr_SetString(PyExc_ValueError, "bad waste length");
        goto error;
    }
    root.w = (uint8_t)w;
    root.rl = rl;
    const uint8_t *fb = (const uint8_t *)PyBytes_AS_STRING(found);
    for (int i = 0; i < 4; i++) {
        if (fb[i] > 13) {
            PyErr_SetString(PyExc_ValueError, "bad foundation count");
            goto error;
        }
        root.found[i] = fb[i];
    }
    memcpy(s->fits, PyBytes_AS_STRING(fits), NC * NC);
    s->draw = draw;
    s->autofill = autofill != 0;
    s->empty_any = empty_any != 0;
    s->mode = mode;
    s->safe_auto = safe_auto != 0;
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
                k++;
            }
        }
        s->needs_n[c] = (uint8_t)k;
    }
    for (int i = 0; i < root.tl; i++) s->rootidx[root.talon[i]] = (uint8_t)i;
    s->maskbytes = (root.tl + 7) / 8;
    s->max_nodes = max_nodes < 0 ? -1 : max_nodes;
    s->max_bytes = max_bytes < 0 ? (size_t)-1 : (size_t)max_bytes;
    s->cap = 1024;
    if (mem_total(s) > s->max_bytes) {
        search_free(s);
        free(s);
        return Py_BuildValue("(s[]Ls)", "unknown", 0LL, "memory");
    }
    s->slots = calloc(s->cap, sizeof(uint64_t));
    if (!s->slots) {
        PyErr_NoMemory();
        goto error;
    }
    s->status = ST_RUNNING;
    s->tstate = PyEval_SaveThread();
    if (max_seconds >= 0) {
        s->has_deadline = 1;
        s->deadline = now() + max_seconds;
    }
    run(s, &root);
    PyEval_RestoreThread(s->tstate);

    PyObject *result = NULL;
    if (s->status == ST_INTERRUPT) goto error; /* exception set by PyErr_CheckSignals */
    if (s->status == ST_WON) {
        PyObject *moves = path_to_list(s);
        if (moves) {
            result = Py_BuildValue("(sNLs)", "won", moves, s->nodes, "");
        }
    } else if (s->status == ST_LOST) {
        result = Py_BuildValue("(s[]Ls)", "lost", s->nodes, "");
    } else {
        const char *why = s->status == ST_NODES  ? "nodes"
                          : s->status == ST_TIME ? "time"
                                                 : "memory";
        result = Py_BuildValue("(s[]Ls)", "unknown", s->nodes, why);
    }
    search_free(s);
    free(s);
    return result;
error:
    search_free(s);
    free(s);
    return NULL;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver",
    "C core of games.engine.solver (same search, same prunings; see solver.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver(void) { return PyModule_Create(&module); }
