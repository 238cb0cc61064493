#!/usr/bin/env python3
"""An independent model of tic-tac-toe and of alpha-beta on it, to re-check the figures the
tests pin (tests/tictactoe.rs, and the counts tests/cli.rs and src/search/oracle.rs cite)
without the harness's code.

    python3 scripts/models/tictactoe.py

Prints the full game tree (nodes, interior nodes, finished games by result and by length), the
reachable positions (all, finished, up to the square's eight symmetries), and full-depth
alpha-beta from the empty board for each scale, variant and ordering (and one search to depth
3, whose unfinished horizon positions evaluate to 0), and principal variation search the same
way, counted as the README's
"What is counted" defines: nodes (the root included), leaves (nodes scored without expanding:
finished games, and at depth 3 the horizon), interior (expanded nodes), cutoffs (nodes left early because a child's value
reached beta), first_move_cutoffs (those caused by the first move tried) and, for principal
variation search, researches (moves searched again on the full window).

Boards are 9-character strings, row-major from the top left, '.' empty; X moves first.
"""

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
INF = 10**9


def rank(sq):
    """The static ordering's class: centre 0, corners 1, edges 2."""
    return 0 if sq == 4 else 1 if sq in (0, 2, 6, 8) else 2


VALUES = {}


def value(board, scale):
    """The minimax value for the side to move (memoized: the oracle orderings read it)."""
    key = (board, scale)
    if key not in VALUES:
        s = score(board, scale)
        if s is None:
            s = max(-value(play(board, sq), scale) for sq in range(9) if board[sq] == ".")
        VALUES[key] = s
    return VALUES[key]


def natural(board, scale):
    return [sq for sq in range(9) if board[sq] == "."]


def static(board, scale):
    # A stable sort: squares of one class stay in index order.
    return sorted(natural(board, scale), key=rank)


def oracle_best(board, scale):
    """`oracle-best`: the move whose exact value for the mover is best first, ties in index
    order (the child's value is the opponent's, so the least comes first)."""
    return sorted(natural(board, scale), key=lambda sq: value(play(board, sq), scale))


def static_oracle(sign):
    """`static+oracle-best` (sign 1) or `-worst` (sign -1): the class first, then within it
    the move whose exact value for the mover is best (worst), ties in index order."""
    return lambda b, scale: sorted(
        natural(b, scale), key=lambda sq: (rank(sq), sign * value(play(b, sq), scale))
    )


def to_move(board):
    return "x" if board.count("x") == board.count("o") else "o"


def score(board, scale):
    """The finished position's score for the side to move (None while the game goes on).
    Only the side that just moved can have completed a line, so a win is always a loss for the
    side to move: -1 (win-loss), or -(10 - stones) (depth-penalty: a quicker win scores more)."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            stones = 9 - board.count(".")
            return -1 if scale == "win-loss" else -(10 - stones)
    if "." not in board:
        return 0
    return None


def play(board, sq):
    return board[:sq] + to_move(board) + board[sq + 1:]


def full_tree():
    nodes = interior = 0
    by_result = {"x": 0, "o": 0, "draw": 0}
    by_length = [0] * 10
    stack = ["........."]
    while stack:
        b = stack.pop()
        nodes += 1
        s = score(b, "win-loss")
        if s is not None:
            stones = 9 - b.count(".")
            by_length[stones] += 1
            # A loss for the side to move is a win for the one who just moved.
            by_result["draw" if s == 0 else ("x" if to_move(b) == "o" else "o")] += 1
            continue
        interior += 1
        stack.extend(play(b, sq) for sq in range(9) if b[sq] == ".")
    return nodes, interior, by_result, by_length


def symmetries():
    """The eight symmetries of the square as maps: cell i of the image is cell p[i]."""
    rotate = [6, 3, 0, 7, 4, 1, 8, 5, 2]  # a quarter turn
    mirror = [2, 1, 0, 5, 4, 3, 8, 7, 6]  # left-right
    maps, p = [], list(range(9))
    for _ in range(4):
        maps.append(p)
        maps.append([p[mirror[i]] for i in range(9)])
        p = [p[rotate[i]] for i in range(9)]
    assert len({tuple(m) for m in maps}) == 8
    return maps


def reachable():
    seen, stack = {"........."}, ["........."]
    while stack:
        b = stack.pop()
        if score(b, "win-loss") is not None:
            continue
        for sq in range(9):
            if b[sq] == ".":
                c = play(b, sq)
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
    finished = sum(score(b, "win-loss") is not None for b in seen)
    maps = symmetries()
    classes = {min("".join(b[p[i]] for i in range(9)) for p in maps) for b in seen}
    return len(seen), finished, len(classes)


def alphabeta(scale, variant, order, depth=9, pvs=False):
    """Alpha-beta to `depth` plies; an unfinished position at the horizon evaluates to 0.

    pvs: principal variation search. Each move after the first is searched on the null window
    (alpha, alpha + 1); when its score falls strictly between alpha and beta and the child is
    not a leaf (a finished game, or the horizon), the child is searched again on (alpha, beta),
    counted as a re-search."""
    count = {"nodes": 0, "leaves": 0, "interior": 0, "cutoffs": 0, "first_move_cutoffs": 0}
    if pvs:
        count["researches"] = 0

    def search(b, depth, alpha, beta):
        count["nodes"] += 1
        s = score(b, scale)
        if s is None and depth == 0:
            s = 0
        if s is not None:
            count["leaves"] += 1
            return s
        count["interior"] += 1
        best = -INF
        for i, sq in enumerate(order(b, scale)):
            child = play(b, sq)
            if pvs and i > 0:
                v = -search(child, depth - 1, -alpha - 1, -alpha)
                leaf = depth == 1 or score(child, scale) is not None
                if alpha < v < beta and not leaf:
                    count["researches"] += 1
                    v = -search(child, depth - 1, -beta, -alpha)
            else:
                v = -search(child, depth - 1, -beta, -alpha)
            best = max(best, v)
            alpha = max(alpha, v)
            if alpha >= beta:
                count["cutoffs"] += 1
                count["first_move_cutoffs"] += i == 0
                return best if variant == "fail-soft" else beta
        return best if variant == "fail-soft" else alpha

    value = search(".........", depth, -INF, INF)
    return value, count


def main():
    nodes, interior, by_result, by_length = full_tree()
    print(f"full tree: {nodes} nodes, {interior} interior, {sum(by_length)} games")
    print(f"  results: X wins {by_result['x']}, O wins {by_result['o']}, draws {by_result['draw']}")
    print("  games by length (plies 5..9):", by_length[5:])
    positions, finished, classes = reachable()
    print(f"reachable: {positions} positions, {finished} finished, {classes} up to symmetry")
    print("alpha-beta, full depth, from the empty board:")
    for scale in ["win-loss", "depth-penalty"]:
        for variant in ["fail-hard", "fail-soft"]:
            for name, order in [
                ("natural", natural),
                ("static", static),
                ("oracle-best", oracle_best),
                ("static+oracle-best", static_oracle(1)),
                ("static+oracle-worst", static_oracle(-1)),
            ]:
                value, c = alphabeta(scale, variant, order)
                fields = ", ".join(f"{k} {v}" for k, v in c.items())
                print(f"  {scale} {variant} {name}: value {value}, {fields}")
    value, c = alphabeta("win-loss", "fail-soft", natural, depth=3)
    fields = ", ".join(f"{k} {v}" for k, v in c.items())
    print(f"alpha-beta to depth 3, win-loss, fail-soft, natural: value {value}, {fields}")
    print("principal variation search, full depth, from the empty board:")
    for scale in ["win-loss", "depth-penalty"]:
        for variant in ["fail-hard", "fail-soft"]:
            for name, order in [("natural", natural), ("static", static), ("oracle-best", oracle_best)]:
                value, c = alphabeta(scale, variant, order, pvs=True)
                fields = ", ".join(f"{k} {v}" for k, v in c.items())
                print(f"  {scale} {variant} {name}: value {value}, {fields}")
    for depth in [3, 5]:
        value, c = alphabeta("depth-penalty", "fail-soft", static, depth=depth, pvs=True)
        fields = ", ".join(f"{k} {v}" for k, v in c.items())
        print(f"principal variation search to depth {depth}, depth-penalty, fail-soft, static: value {value}, {fields}")


if __name__ == "__main__":
    main()
