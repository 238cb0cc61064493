#!/usr/bin/env python3
"""An independent model of the harness's uniform trees, written from the README's definition
alone (section "Uniform trees", "A tree's values, exactly"), without the harness's code: each
node's hash, index, value and table key, the tree seeds an experiment gives its trees, and
alpha-beta on them as scripts/models/enhancements.py searches (natural, static, killer,
history, tt, and the oracle orderings).

    python3 scripts/models/uniform.py --check RUNS.csv    # every row where a runs.csv differs
    python3 scripts/models/uniform.py --leaves SPEC SEED  # a tree's leaf values, in order

The first form searches again each row of a harness runs.csv it can model (a uniform tree,
alpha-beta, tie_break first, finished; orderings made of natural, static, killer, history, tt,
oracle-best and oracle-worst; an ample table as enhancements.py models it) and prints
`run_key,column,csv,model` for every column that differs (value, best_move, pv, the counters),
then on stderr the rows checked, equal and skipped (with why); exit status 1 if any row
differs. When the folder of RUNS.csv holds the manifest.json harness wrote, it also derives
each tree's seed from the experiment seed and compares it with the position column's.

SPEC in the second form is `b,d,values,model` (values distinct | continuous | integer:LO:HI,
model independent | incremental | nested); SEED the tree seed (0x... or decimal). It prints the
b^d leaf values from the first player's view, one a line, left to right.
"""
import csv
import json
import os
import sys

from enhancements import COUNTERS, Search, check_rows, summary

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
VALUE_LIMIT = 1 << 29
SALT_ROOT = 0x5851F42D4C957F2D
SALT_VALUE = 0x6A09E667F3BCC908
SALT_EDGE = 0xBB67AE8584CAA73B
SALT_PERM = 0x3C6EF372FE94F82B
SALT_RANK = 0xA54FF53A5F1D36F1


def splitmix(z):
    z = (z + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def mix(seed, h):
    """A tree's seed from the experiment seed and the FNV-1a hash of its key text."""
    z = seed ^ (((h << 17) | (h >> 47)) & MASK) ^ GOLDEN
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def fnv1a(text):
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & MASK
    return h


def permute(x, n, key):
    """The seeded permutation of 0..n: a 4-round Feistel network on 2 * ceil(bits / 2) bits,
    bits being those of n - 1, walking the cycle until the value falls below n."""
    if n <= 1:
        return 0
    half = ((n - 1).bit_length() + 1) // 2
    mask = (1 << half) - 1
    v = x
    while True:
        left, right = v >> half, v & mask
        for rnd in range(4):
            f = splitmix(key ^ right ^ (rnd << 58)) & mask
            left, right = right, left ^ f
        v = (left << half) | right
        if v < n:
            return v


class Uniform:
    """A position is (ply, hash, index, s): s is the partial sum (incremental) or the block's
    first value (nested), else 0. Moves are child numbers 0..b-1."""

    def __init__(self, b, d, values, model, seed, lo=-100, hi=100):
        self.b, self.d, self.values, self.model, self.seed = b, d, values, model, seed
        self.lo, self.hi = lo, hi

    def root(self):
        return (0, splitmix(self.seed ^ SALT_ROOT), 0, 0)

    def parse(self, text):
        fields = dict(part.split("=", 1) for part in text.split(","))
        seed = fields["seed"]
        assert int(seed, 0) == self.seed, "position seed"
        pos = self.root()
        for step in filter(None, fields.get("path", "").split(".")):
            pos = self.play(pos, int(step))
        return pos

    # -- values -----------------------------------------------------------------------------
    def draw(self, x):
        if self.values == "integer":
            return self.lo + ((x * (self.hi - self.lo + 1)) >> 64)
        return (x >> 34) - VALUE_LIMIT

    def edge(self, x):
        if self.values == "integer":
            return self.draw(x)
        e = VALUE_LIMIT // self.d
        return ((x * 2 * e) >> 64) - e

    def block(self, p):
        return self.b ** (self.d - p)

    def value_first(self, pos):
        p, h, index, s = pos
        if self.model == "incremental":
            return s
        if self.model == "nested":
            return s + (self.block(p) - 1) // 2 - self.block(0) // 2
        if self.values == "distinct":
            n = self.b ** p
            return permute(index, n, splitmix(self.seed ^ SALT_PERM ^ (p << 56))) - n // 2
        return self.draw(splitmix(h ^ SALT_VALUE))

    def for_mover(self, p, v):
        return -v if p % 2 else v

    # -- the game -----------------------------------------------------------------------------
    def play(self, pos, m):
        p, h, index, s = pos
        child = splitmix(h ^ (((m + 1) * GOLDEN) & MASK))
        if self.model == "incremental":
            s += self.edge(splitmix(child ^ SALT_EDGE))
        elif self.model == "nested":
            rank = permute(m, self.b, splitmix(h ^ SALT_RANK))
            digit = rank if p % 2 == 0 else self.b - 1 - rank
            s += digit * self.block(p + 1)
        return (p + 1, child, (index * self.b + m) & MASK, s)

    def moves(self, pos):
        return list(range(self.b))

    def utility(self, pos):
        if pos[0] == self.d:
            return self.for_mover(pos[0], self.value_first(pos))
        return None

    def evaluate(self, pos):
        return self.for_mover(pos[0], self.value_first(pos))

    def key(self, pos):
        return pos[1]

    def plies_left(self, pos):
        return self.d - pos[0]

    def static_key(self, pos, m):
        # "children by their heuristic value", best for the mover first
        return -self.for_mover(pos[0], self.value_first(self.play(pos, m)))

    def history_index(self, m):
        return m

    def text(self, m):
        return str(m)

    def leaves(self, pos=None):
        pos = pos or self.root()
        if pos[0] == self.d:
            yield self.value_first(pos)
            return
        for m in range(self.b):
            yield from self.leaves(self.play(pos, m))


class OracleSearch(Search):
    """enhancements.Search with the oracle orderings: children by their exact negamax value
    for the remaining depth (the horizon evaluated), best or worst first, ties in natural
    order."""

    def __init__(self, game, ordering, *args, **kwargs):
        oracle = [t for t in ordering.split("+") if t.startswith("oracle-")]
        rest = "+".join(t for t in ordering.split("+") if not t.startswith("oracle-")) or "natural"
        super().__init__(game, rest, *args, **kwargs)
        # Keep the terms in their written order, the oracle's among them.
        names = [t for t in ordering.split("+") if t != "natural"]
        self.terms = [t for t in names if t != "tt" or self.table is not None]
        self.oracle = bool(oracle)
        self.memo = {}
        self.remaining = 0

    def exact(self, pos, depth):
        g = self.game
        u = g.utility(pos)
        if u is not None:
            return u
        if depth == 0:
            return g.evaluate(pos)
        k = (pos[1], depth)
        if k not in self.memo:
            self.memo[k] = max(-self.exact(g.play(pos, m), depth - 1) for m in g.moves(pos))
        return self.memo[k]

    def term_key(self, term, pos, m, ply, tt_move):
        if term in ("oracle-best", "oracle-worst"):
            v = -self.exact(self.game.play(pos, m), self.remaining - ply - 1)
            return -v if term == "oracle-best" else v
        return super().term_key(term, pos, m, ply, tt_move)

    def node(self, pos, depth, alpha, beta, ply, on_pv):
        if ply == 0:  # each iteration of iterative deepening orders by its own depth
            self.remaining = depth
        return super().node(pos, depth, alpha, beta, ply, on_pv)


def game_of(row):
    values = row["values"]
    lo, hi = -100, 100
    if values == "integer" and row.get("range"):
        lo, hi = (int(x) for x in row["range"].split(".."))
    seed = int(dict(p.split("=", 1) for p in row["position"].split(","))["seed"], 0)
    return Uniform(int(row["branching"]), int(row["height"]), values, row["model"], seed, lo, hi)


def key_text(row, tree):
    """The run key's game part, then the tree's number (README, Uniform trees: Pairing)."""
    text = f"game=uniform;branching={row['branching']};height={row['height']};values={row['values']}"
    if row["values"] == "integer":
        text += f";range={row['range']}"
    return text + f";model={row['model']};tree={tree}"


MAX_NODES = 200_000  # rows that entered more are skipped: this model is slow


def skip_reason(row):
    if row.get("game") != "uniform":
        return "game"
    if row.get("algorithm") != "alphabeta":
        return "algorithm"
    if row.get("status") != "ok" or row.get("tie_break") != "first":
        return "budget or random tie-break"
    if any(t not in ("natural", "static", "killer", "history", "tt", "oracle-best", "oracle-worst")
           for t in row["ordering"].split("+")):
        return "ordering"
    if row.get("tt") == "on" and (row.get("tt_key_bits") != "64" or row.get("tt_overwrites") != "0"
                                  or row.get("tt_collisions") != "0"):
        return "table not ample (key bits, overwrites or collisions)"
    if int(row["nodes"]) > MAX_NODES or (
            "oracle" in row["ordering"] and int(row["branching"]) ** int(row["depth"]) > MAX_NODES):
        return f"more than {MAX_NODES:,} nodes"
    return None


def model_row(row):
    game = game_of(row)
    s = OracleSearch(game, row["ordering"], row["variant"] or "fail-soft", row.get("tt") == "on")
    value, pv, _ = s.run(game.parse(row["position"]), int(row["depth"]),
                         row.get("iterative") == "true")
    out = {k: s.c[k] for k in COUNTERS}
    out.update(value=value, pv=" ".join(map(str, pv)), best_move=str(pv[0]) if pv else "")
    if row.get("iterative") != "true":  # per-iteration columns: enhancements.py checks those
        out["tt_occupancy"] = len(s.table) if s.table is not None else 0
    return out


def check(path):
    manifest = os.path.join(os.path.dirname(path) or ".", "manifest.json")
    seed = json.load(open(manifest))["seed"] if os.path.exists(manifest) else None
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    seeds, wrong_seeds = 0, 0
    for row in rows:
        if row.get("game") == "uniform" and seed is not None:
            fields = dict(p.split("=", 1) for p in row["position"].split(","))
            want = mix(seed, fnv1a(key_text(row, int(fields["tree"]))))
            if int(fields["seed"], 0) != want:
                print(f"{row['run_key']},tree seed,{fields['seed']},{want:#018x}")
                wrong_seeds += 1
            seeds += 1
    matched, differ, skipped = check_rows(rows, skip_reason, model_row)
    extra = f"; {seeds} tree seeds derived, {wrong_seeds} differ" if seed is not None else ""
    print(summary(matched, differ, skipped, extra), file=sys.stderr)
    return 1 if differ or wrong_seeds else 0


def leaves(spec, seed):
    b, d, values, model = spec.split(",")
    lo, hi = -100, 100
    if values.startswith("integer:"):
        values, lo, hi = values.split(":")
        lo, hi = int(lo), int(hi)
    for v in Uniform(int(b), int(d), values, model, int(seed, 0), lo, hi).leaves():
        print(v)


def main(argv):
    if len(argv) == 3 and argv[1] == "--check":
        return check(argv[2])
    if len(argv) == 4 and argv[1] == "--leaves":
        leaves(argv[2], argv[3])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
