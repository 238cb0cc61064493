#!/usr/bin/env python3
"""An independent model of alpha-beta's enhancements (killer moves, the history heuristic, the
transposition table and iterative deepening) on tic-tac-toe and Nim, written from the README's
definitions alone (sections "Games", "Algorithms", "Orderings", "Transposition table, killers,
history, iterative deepening" and "What is counted"), without the harness's code.

    python3 scripts/models/enhancements.py                  # the figures tests/tt.rs pins
    python3 scripts/models/enhancements.py --check RUNS.csv # every row where a runs.csv differs

The first form prints the counters `counters_equal_independent_models` (tests/tt.rs) pins for
tic-tac-toe and Nim. The second searches again each row of a harness runs.csv it can model
(alpha-beta on tic-tac-toe or Nim, tie_break first, no quiescence, finished, orderings made of
natural, static, killer, history and tt) and prints `run_key,column,csv,model` for every column
that differs (value, best_move, pv, the counters, the iteration_ columns), then on stderr the
rows checked, equal and skipped (with why); exit status 1 if any row differs.

The table is modelled as ample: one exact entry per position key, no slots. That is exact for a
row whose tt_overwrites and tt_collisions are 0 with 64 key bits (no entry lost or shared), so
rows with other tables are skipped. Keys: tic-tac-toe the stones and the side to move (the
board string says both); Nim the heap sizes alone ("side left out because Nim is impartial").
"""
import csv
import sys

INF = 10**9  # the search's infinity (README, Uniform trees: "the search's infinity (10^9)")
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
EXACT, LOWER, UPPER = "exact", "lower", "upper"


class TicTacToe:
    """Games table: squares 0..8 row-major, X first; scale win-loss (+1/-1/0) or depth-penalty
    (+-(10 - stones on the board)); static order centre, corners, edges, ties natural."""

    def __init__(self, scale="win-loss"):
        self.scale = scale

    def parse(self, text):
        text = text.strip()
        if len(text) == 9 and set(text.lower()) <= set("xo.-_"):
            return "".join("." if ch in "-_" else ch for ch in text.lower())
        board = "........."
        for sq in text.replace(",", " ").split() if ("," in text or " " in text) else text:
            board = self.play(board, int(sq))
        return board

    def key(self, b):  # "tic-tac-toe: stones and side to move": the board says both
        return b

    def evaluate(self, b):  # an unfinished position at the horizon
        return 0

    def utility(self, b):
        """A finished game's score for the side to move, else None. Only the side that just
        moved can have completed a line, so a finished win is the side to move's loss."""
        for x, y, z in LINES:
            if b[x] != "." and b[x] == b[y] == b[z]:
                return -1 if self.scale == "win-loss" else -(10 - (9 - b.count(".")))
        return 0 if "." not in b else None

    def moves(self, b):
        return [sq for sq in range(9) if b[sq] == "."]

    def play(self, b, sq):
        side = "x" if b.count("x") == b.count("o") else "o"
        return b[:sq] + side + b[sq + 1:]

    def plies_left(self, b):  # "tic-tac-toe: 9 less the stones on the board"
        return b.count(".")

    def static_key(self, b, sq):
        return 0 if sq == 4 else 1 if sq in (0, 2, 6, 8) else 2

    def history_index(self, sq):  # "tic-tac-toe: the square 0-8"
        return sq

    def text(self, sq):
        return str(sq)


class Nim:
    """Games table: heaps left to right, take 1, 2, ... (natural); static: moves that leave a
    nim-sum of 0 first, then larger takes first. Normal play: taking the last object wins."""

    def __init__(self, misere=False):
        self.misere = misere

    def parse(self, text):
        return tuple(int(h) for h in text.split(","))

    def key(self, heaps):  # "Nim: heap sizes, side left out because Nim is impartial"
        return heaps

    def evaluate(self, heaps):  # an unfinished position at the horizon
        return 0

    def utility(self, heaps):
        # No move left: under normal play the side to move lost (+-1, "Nim's +-1").
        if sum(heaps):
            return None
        return 1 if self.misere else -1

    def moves(self, heaps):
        return [(h, t) for h, n in enumerate(heaps) for t in range(1, n + 1)]

    def play(self, heaps, m):
        h, t = m
        return heaps[:h] + (heaps[h] - t,) + heaps[h + 1:]

    def plies_left(self, heaps):  # "Nim: the stones left"
        return sum(heaps)

    def static_key(self, heaps, m):
        s = 0
        for n in self.play(heaps, m):
            s ^= n
        return (0 if s == 0 else 1, -m[1])

    def history_index(self, m):  # "Nim: 63 x heap + take - 1, heaps from 0"
        return 63 * m[0] + m[1] - 1

    def text(self, m):
        return f"{m[0]}:{m[1]}"


COUNTERS = ["nodes", "leaves", "terminal", "interior", "moves_generated", "cutoffs",
            "first_move_cutoffs", "max_ply", "tt_probes", "tt_hits", "tt_cutoffs", "tt_stores",
            "cutoffs_tt", "cutoffs_killer", "cutoffs_history"]
PER_ITERATION = ["nodes", "leaves", "cutoffs", "first_move_cutoffs", "tt_probes", "tt_hits",
                 "tt_cutoffs", "cutoffs_tt", "cutoffs_killer", "cutoffs_history"]


class Search:
    """Alpha-beta in negamax form, root window (-INF, +INF) (README, Algorithms), with the
    enhancements an ordering names (killer, history, tt) and an optional table."""

    def __init__(self, game, ordering, variant="fail-soft", table=False, bounds="correct"):
        self.game, self.variant, self.bounds = game, variant, bounds
        terms = [t for t in ordering.split("+") if t != "natural"]
        # "the runs without a table order as if tt were not named"
        self.terms = [t for t in terms if t != "tt" or table]
        self.killer_on, self.history_on = "killer" in terms, "history" in terms
        self.table = {} if table else None
        self.killers = {}   # ply -> [most recent, second]
        self.history = {}   # move index -> sum of depth^2
        self.prev_pv = []   # the previous iteration's principal variation
        self.c = dict.fromkeys(COUNTERS, 0)

    # -- move order ------------------------------------------------------------------------
    def term_key(self, term, pos, m, ply, tt_move):
        if term == "static":
            return self.game.static_key(pos, m)
        if term == "killer":  # the ply's two slots, most recent first, then the rest
            slots = self.killers.get(ply, [])
            return slots.index(m) if m in slots else 2
        if term == "history":  # larger history score first
            return -self.history.get(self.game.history_index(m), 0)
        if term == "tt":
            return 0 if m == tt_move else 1
        raise ValueError(f"no model of ordering term {term}")

    def order(self, pos, ply, tt_move, pv_move):
        """The terms apply lexicographically with stable sorts, natural order breaking ties;
        with a table the table's move goes first unless `tt` is named; the previous
        iteration's PV move goes before all (README, Transposition table...: "Move order")."""
        moves = self.game.moves(pos)
        moves.sort(key=lambda m: tuple(self.term_key(t, pos, m, ply, tt_move) for t in self.terms))
        if self.table is not None and "tt" not in self.terms and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        if pv_move in moves:
            moves.remove(pv_move)
            moves.insert(0, pv_move)
        return moves

    # -- learning from a cutoff -------------------------------------------------------------
    def credit(self, m, ply, tt_move):
        """cutoffs_tt, else _killer, else _history, each read when the cutoff happens."""
        if self.table is not None and m == tt_move:
            self.c["cutoffs_tt"] += 1
        elif self.killer_on and m in self.killers.get(ply, []):
            self.c["cutoffs_killer"] += 1
        elif self.history_on and self.history.get(self.game.history_index(m), 0) > 0:
            self.c["cutoffs_history"] += 1

    def learn(self, m, ply, depth):
        if self.killer_on:  # second slot's move: swap; first's: nothing; other: first, first second
            slots = self.killers.setdefault(ply, [])
            if m in slots:
                if slots.index(m) == 1:
                    slots.reverse()
            else:
                self.killers[ply] = [m] + slots[:1]
        if self.history_on:  # "the sum of depth^2 over the cutoffs the move caused"
            i = self.game.history_index(m)
            self.history[i] = self.history.get(i, 0) + depth * depth

    # -- the table ----------------------------------------------------------------------------
    def probe(self, key, depth, alpha, beta, ply):
        """A probe at every node that is not a leaf. An entry at least as deep returns its exact
        score, or raises alpha (lower) or lowers beta (upper), cutting off when alpha >= beta;
        never at the root ("the root uses an entry only for its move"). Returns (entry, alpha,
        beta, cut, deeper): deeper when a strictly deeper entry moved the window."""
        self.c["tt_probes"] += 1
        entry = self.table.get(key)
        if entry is None:
            return None, alpha, beta, False, False
        self.c["tt_hits"] += 1
        e_depth, score, bound, _ = entry
        if ply == 0 or e_depth < depth:
            return entry, alpha, beta, False, False
        if bound == LOWER:
            alpha = max(alpha, score)
        elif bound == UPPER:
            beta = min(beta, score)
        return entry, alpha, beta, bound == EXACT or alpha >= beta, e_depth > depth

    def bound_of(self, value, alpha, beta):
        """Upper if value <= alpha, lower if >= beta, exact otherwise, (alpha, beta) being "the
        window the node was called with, moved only by an entry strictly deeper than the node":
        an entry of the node's own depth moves the search's window but not this one, so a value
        at the bound it raised alpha to is exact. naive-exact: always exact."""
        if self.bounds == "naive-exact":
            return EXACT
        if value <= alpha:
            return UPPER
        return LOWER if value >= beta else EXACT

    # -- the search -------------------------------------------------------------------------
    def node(self, pos, depth, alpha, beta, ply, on_pv):
        c, g = self.c, self.game
        c["nodes"] += 1  # every call, root included
        c["max_ply"] = max(c["max_ply"], ply)
        u = g.utility(pos)
        if u is not None or depth == 0:  # a leaf: finished game, or the horizon's evaluation
            c["leaves"] += 1
            c["terminal"] += u is not None
            return (g.evaluate(pos) if u is None else u), []
        a0, b0 = alpha, beta
        entry, deeper = None, False
        if self.table is not None:
            entry, alpha, beta, cut, deeper = self.probe(g.key(pos), depth, alpha, beta, ply)
            # fail-hard: "the entry's score clamped to the window the node was called with";
            # fail-soft: the entry's score ("A table cutoff returns the entry's score ... with
            # `fail-soft`")
            if cut:
                c["tt_cutoffs"] += 1
                score = entry[1]
                return (min(max(score, a0), b0) if self.variant == "fail-hard" else score), []
        wa, wb = (alpha, beta) if deeper else (a0, b0)  # the window the stored bound is read against
        c["interior"] += 1
        tt_move = entry[3] if entry else None
        pv_move = self.prev_pv[ply] if on_pv and ply < len(self.prev_pv) else None
        moves = self.order(pos, ply, tt_move, pv_move)
        c["moves_generated"] += len(moves)
        best, best_move, pv, cut = -INF, None, [], False
        for i, m in enumerate(moves):
            v, child_pv = self.node(g.play(pos, m), depth - 1, -beta, -alpha, ply + 1,
                                    on_pv and m == pv_move)
            v = -v
            if v > best:  # the first move whose child returned the highest value
                best, best_move = v, m
            if v > alpha:  # the node takes the child's line (root: first best, tie_break first)
                alpha, pv = v, [m] + child_pv
            if alpha >= beta:
                c["cutoffs"] += 1
                c["first_move_cutoffs"] += i == 0
                self.credit(m, ply, tt_move)
                self.learn(m, ply, depth)
                cut = True
                break
        if self.variant == "fail-soft":
            value = best
        else:  # fail-hard: beta on a cutoff, else alpha, of the window as an entry moved it
            value = beta if cut else alpha
        if self.table is not None:
            # Scores "stored relative to the node" (depth-penalty) need no shift here: a
            # tic-tac-toe position always lies as many plies below the root as it has new stones.
            self.table[g.key(pos)] = (depth, value, self.bound_of(value, wa, wb), best_move)
            c["tt_stores"] += 1
        return value, pv

    def run(self, pos, depth, iterative):
        """depth capped at the plies the game can still last; iterative deepening searches
        1..d, the previous PV first, the table, killers and history kept, history halved
        (rounding down) between iterations."""
        d = min(depth, self.game.plies_left(pos))
        if self.game.utility(pos) is not None:
            d = 0
        if not iterative or d == 0:
            value, pv = self.node(pos, d, -INF, INF, 0, False)
            return value, pv, []
        iterations = []
        for k in range(1, d + 1):
            if k > 1:
                self.history = {i: h // 2 for i, h in self.history.items()}
            before = dict(self.c)
            value, pv = self.node(pos, k, -INF, INF, 0, True)
            self.prev_pv = pv
            iterations.append({n: self.c[n] - before[n] for n in PER_ITERATION})
        return value, pv, iterations


def search(game, pos, depth, ordering, variant="fail-soft", table=False, iterative=False,
           bounds="correct"):
    s = Search(game, ordering, variant, table, bounds)
    value, pv, iterations = s.run(pos, depth, iterative)
    out = dict(s.c, value=value, pv=" ".join(game.text(m) for m in pv), iterations=iterations)
    out["best_move"] = game.text(pv[0]) if pv else ""
    out["tt_occupancy"] = len(s.table) if s.table is not None else 0
    return out


# -- checking a harness runs.csv -------------------------------------------------------------
def skip_reason(row):
    if row.get("game") not in ("tictactoe", "nim"):
        return "game"
    if row.get("algorithm") != "alphabeta":
        return "algorithm"
    if row.get("status") != "ok" or row.get("tie_break") != "first":
        return "budget or random tie-break"
    if row.get("quiescence", "off") != "off":
        return "quiescence"
    if any(t not in ("natural", "static", "killer", "history", "tt")
           for t in row["ordering"].split("+")):
        return "ordering"
    if row.get("tt") == "on" and (row.get("tt_key_bits") != "64" or row.get("tt_overwrites") != "0"
                                  or row.get("tt_collisions") != "0"):
        return "table not ample (key bits, overwrites or collisions)"
    return None


def model_row(row):
    if row["game"] == "nim":
        game = Nim(row.get("misere") == "true")
    else:
        game = TicTacToe(row.get("scale") or "win-loss")
    iterative = row.get("iterative") == "true"
    r = search(game, game.parse(row["position"]), int(row["depth"]), row["ordering"],
               row["variant"] or "fail-soft", row.get("tt") == "on", iterative,
               row.get("tt_bounds") or "correct")
    r["tt_overwrites"] = r["tt_collisions"] = r["tt_false_hits"] = 0
    its = r.pop("iterations")
    for name in PER_ITERATION:
        r["iteration_" + name] = " ".join(f"{k + 1}:{it[name]}" for k, it in enumerate(its))
    r["iteration_qnodes"] = " ".join(f"{k + 1}:0" for k in range(len(its)))
    return r


def check_rows(rows, skip_reason, model_row):
    """Models each row skip_reason lets through, printing `run_key,column,csv,model` for every
    column that differs; returns (rows equal, rows that differ, {why skipped: rows})."""
    differ, matched, skipped = 0, 0, {}
    for row in rows:
        why = skip_reason(row)
        if why:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        model = model_row(row)
        bad = [(k, row[k], str(v)) for k, v in model.items() if k in row and row[k] != str(v)]
        for col, want, got in bad:
            print(f"{row['run_key']},{col},{want},{got}")
        differ += bool(bad)
        matched += not bad
    return matched, differ, skipped


def summary(matched, differ, skipped, extra=""):
    return (f"{matched + differ} rows checked: {matched} equal, {differ} differ{extra}; skipped: "
            + (", ".join(f"{n} ({k})" for k, n in sorted(skipped.items())) or "none"))


def check(path):
    with open(path, newline="") as f:
        matched, differ, skipped = check_rows(csv.DictReader(f), skip_reason, model_row)
    print(summary(matched, differ, skipped), file=sys.stderr)
    return 1 if differ else 0


# -- the pinned figures --------------------------------------------------------------------
def pinned():
    print("tic-tac-toe, depth-penalty, empty board, full depth, fail-soft, no table:")
    print("  ordering: value, nodes, cutoffs, first_move_cutoffs, cutoffs_killer, cutoffs_history")
    for ordering in ["killer", "history", "killer+history", "killer+static"]:
        r = search(TicTacToe("depth-penalty"), ".........", 9, ordering)
        print(f"  {ordering}: {r['value']}, {r['nodes']}, {r['cutoffs']}, "
              f"{r['first_move_cutoffs']}, {r['cutoffs_killer']}, {r['cutoffs_history']}")
    print("Nim 2,3,4,5, depth 7, fail-soft, tt+killer+history+static, ample table:")
    r = search(Nim(), (2, 3, 4, 5), 7, "tt+killer+history+static", table=True)
    names = ["nodes", "leaves", "interior", "cutoffs", "tt_probes", "tt_hits", "tt_cutoffs",
             "tt_stores", "tt_occupancy", "cutoffs_tt", "cutoffs_killer", "cutoffs_history"]
    print(f"  value {r['value']}; " + ", ".join(f"{n} {r[n]}" for n in names))


def main(argv):
    if len(argv) == 3 and argv[1] == "--check":
        return check(argv[2])
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    pinned()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
