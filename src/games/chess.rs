//! Chess, with legal move generation from the `cozy-chess` crate (MIT).
//!
//! **Board and make/unmake.** cozy-chess's `Board` is copy-make: playing a move changes a
//! board in place and there is no undo. `Chess` keeps a stack of boards, one per ply from the
//! position it was built from; `make` pushes a copy of the top board with the move played,
//! `unmake` pops it. The stack's capacity is kept, so after the first visit to a depth no
//! node allocates.
//!
//! **Moves** are cozy-chess `Move`s. Inside, castling is "king takes own rook" (cozy-chess's
//! Chess960 encoding); in text it is standard UCI (`e1g1`), and `parse_move` accepts both.
//! The natural order is cozy-chess's generation order: pawns, knights, bishops, rooks,
//! queens, king, each by square.
//!
//! **Key.** cozy-chess's incrementally updated Zobrist hash: pieces on squares, side to move,
//! castling rights and the en-passant file (set after every double pawn step, whether or not
//! a capture is possible). Not in it: the halfmove clock and move number.
//!
//! **Evaluation** (centipawns, from the side to move): material plus piece-square tables, with
//! the values and tables of Tomasz Michniewski's "Simplified Evaluation Function"
//! (chessprogramming wiki, <https://www.chessprogramming.org/Simplified_Evaluation_Function>):
//! P 100, N 320, B 330, R 500, Q 900; the king uses the end-game table when each side has no
//! queen, or a queen and at most one minor piece besides.
//!
//! **Outcome** (from the side to move): checkmate `-(MATE - ply)`, `ply` counted from the
//! search root (the position as parsed), so a faster mate scores higher; draws score 0:
//! stalemate, insufficient material (no pawns, rooks or queens, and at most one minor piece,
//! or only bishops all on squares of one colour), the fifty-move rule (halfmove clock at 100,
//! checkmate first), and repetition: a position whose key occurred before on the game's path
//! (the moves given with the position and the search path), within the halfmove clock — one
//! earlier occurrence is enough (the usual engine rule, since a side that can repeat once can
//! repeat again).
//!
//! **Repetition and transposition tables.** A repetition draw depends on the path, and the key
//! does not: a table that stores the draw score of a repeated position under its key can hand
//! it to the same position reached by another path, where it is no draw, and the other way
//! round (the graph-history interaction). Tables keyed by `key()` therefore give values that
//! may differ from a search without a table in positions where repetitions are possible; the
//! searches that must equal minimax exactly (the tests) run without a table, and with one the
//! difference is a property of the method, not a bug.
//!
//! **Positions** in text: `start`; a FEN (six fields, or the first four with clock 0 and move
//! 1), optionally followed by `moves m1 m2 ...` in UCI; or an EPD line: the first four FEN
//! fields then operations `opcode operands;`. `bm` and `am` (moves in SAN, or UCI) and `id`
//! are kept; `hmvc` and `fmvn` set the clocks; other operations are kept in the text only.

use cozy_chess::{BitBoard, Board, Color, FenParseError, File, Move, Piece, Rank, Square};

use super::{Game, NoisyKinds, Side};

/// Mate score: a side checkmated at ply `p` from the root scores `-(MATE - p)`.
pub const MATE: i32 = 100_000;

/// The starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Piece values in centipawns, indexed by `Piece as usize` (P, N, B, R, Q, K).
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Piece-square tables from White's side, a8 first (as printed in the source), by piece; the
/// king's middle-game table is index 5, its end-game table [`KING_END`].
#[rustfmt::skip]
const PST: [[i32; 64]; 6] = [
    // Pawn
    [  0,  0,  0,  0,  0,  0,  0,  0,
      50, 50, 50, 50, 50, 50, 50, 50,
      10, 10, 20, 30, 30, 20, 10, 10,
       5,  5, 10, 25, 25, 10,  5,  5,
       0,  0,  0, 20, 20,  0,  0,  0,
       5, -5,-10,  0,  0,-10, -5,  5,
       5, 10, 10,-20,-20, 10, 10,  5,
       0,  0,  0,  0,  0,  0,  0,  0],
    // Knight
    [-50,-40,-30,-30,-30,-30,-40,-50,
     -40,-20,  0,  0,  0,  0,-20,-40,
     -30,  0, 10, 15, 15, 10,  0,-30,
     -30,  5, 15, 20, 20, 15,  5,-30,
     -30,  0, 15, 20, 20, 15,  0,-30,
     -30,  5, 10, 15, 15, 10,  5,-30,
     -40,-20,  0,  5,  5,  0,-20,-40,
     -50,-40,-30,-30,-30,-30,-40,-50],
    // Bishop
    [-20,-10,-10,-10,-10,-10,-10,-20,
     -10,  0,  0,  0,  0,  0,  0,-10,
     -10,  0,  5, 10, 10,  5,  0,-10,
     -10,  5,  5, 10, 10,  5,  5,-10,
     -10,  0, 10, 10, 10, 10,  0,-10,
     -10, 10, 10, 10, 10, 10, 10,-10,
     -10,  5,  0,  0,  0,  0,  5,-10,
     -20,-10,-10,-10,-10,-10,-10,-20],
    // Rook
    [  0,  0,  0,  0,  0,  0,  0,  0,
       5, 10, 10, 10, 10, 10, 10,  5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
       0,  0,  0,  5,  5,  0,  0,  0],
    // Queen
    [-20,-10,-10, -5, -5,-10,-10,-20,
     -10,  0,  0,  0,  0,  0,  0,-10,
     -10,  0,  5,  5,  5,  5,  0,-10,
      -5,  0,  5,  5,  5,  5,  0, -5,
       0,  0,  5,  5,  5,  5,  0, -5,
     -10,  5,  5,  5,  5,  5,  0,-10,
     -10,  0,  5,  0,  0,  0,  0,-10,
     -20,-10,-10, -5, -5,-10,-10,-20],
    // King, middle game
    [-30,-40,-40,-50,-50,-40,-40,-30,
     -30,-40,-40,-50,-50,-40,-40,-30,
     -30,-40,-40,-50,-50,-40,-40,-30,
     -30,-40,-40,-50,-50,-40,-40,-30,
     -20,-30,-30,-40,-40,-30,-30,-20,
     -10,-20,-20,-20,-20,-20,-20,-10,
      20, 20,  0,  0,  0,  0, 20, 20,
      20, 30, 10,  0,  0, 10, 30, 20],
];

/// The king's end-game table (same source and layout).
#[rustfmt::skip]
const KING_END: [i32; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];

/// The EPD operations a position carries that the harness uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EpdOps {
    /// Best moves (`bm`).
    pub bm: Vec<Move>,
    /// Moves to avoid (`am`).
    pub am: Vec<Move>,
    /// The position's name (`id`).
    pub id: Option<String>,
}

/// A chess game: a stack of boards from the parsed position (see the module notes).
#[derive(Clone, Debug)]
pub struct Chess {
    stack: Vec<Board>,
    /// Index in `stack` of the search root: the position as parsed, after any `moves`.
    root: usize,
    ops: EpdOps,
}

impl Default for Chess {
    fn default() -> Self {
        Chess::from_board(Board::default())
    }
}

/// Whether `m` is castling in cozy-chess's encoding (the king moves onto its own rook).
#[inline(always)]
fn is_castle(b: &Board, m: Move) -> bool {
    b.colors(b.side_to_move()).has(m.to)
}

/// The piece `m` captures, if any (en passant included).
#[inline(always)]
fn victim(b: &Board, m: Move) -> Option<Piece> {
    match b.piece_on(m.to) {
        Some(p) if b.color_on(m.to) != Some(b.side_to_move()) => Some(p),
        Some(_) => None,
        None => {
            if m.from.file() != m.to.file() && b.piece_on(m.from) == Some(Piece::Pawn) {
                Some(Piece::Pawn)
            } else {
                None
            }
        }
    }
}

/// Material gained by `m`: the victim's value plus the promotion gain.
#[inline(always)]
fn gain(b: &Board, m: Move) -> i32 {
    let mut g = victim(b, m).map(|p| VALUES[p as usize]).unwrap_or(0);
    if let Some(p) = m.promotion {
        g += VALUES[p as usize] - VALUES[Piece::Pawn as usize];
    }
    g
}

/// Whether a side counts as in the end game for the king's table: no queen, or a queen and
/// at most one minor piece besides (no rook).
fn side_in_endgame(b: &Board, c: Color) -> bool {
    let own = b.colors(c);
    let queens = (own & b.pieces(Piece::Queen)).len();
    if queens == 0 {
        return true;
    }
    let rooks = (own & b.pieces(Piece::Rook)).len();
    let minors = (own & (b.pieces(Piece::Knight) | b.pieces(Piece::Bishop))).len();
    queens == 1 && rooks == 0 && minors <= 1
}

/// Material and piece-square score from White's side.
pub fn evaluate_white(b: &Board) -> i32 {
    let endgame = side_in_endgame(b, Color::White) && side_in_endgame(b, Color::Black);
    let mut score = 0;
    for piece in Piece::ALL {
        let i = piece as usize;
        let table = if piece == Piece::King && endgame {
            &KING_END
        } else {
            &PST[i]
        };
        for sq in b.colored_pieces(Color::White, piece) {
            // Tables are printed a8 first: White's square index flips the rank.
            score += VALUES[i] + table[sq as usize ^ 56];
        }
        for sq in b.colored_pieces(Color::Black, piece) {
            score -= VALUES[i] + table[sq as usize];
        }
    }
    score
}

/// No sequence of legal moves can mate: no pawns, rooks or queens, and at most one minor
/// piece on the board, or only bishops, all on squares of one colour.
fn insufficient_material(b: &Board) -> bool {
    if !(b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen)).is_empty() {
        return false;
    }
    let knights = b.pieces(Piece::Knight);
    let bishops = b.pieces(Piece::Bishop);
    if knights.len() + bishops.len() <= 1 {
        return true;
    }
    const DARK: u64 = 0xAA55_AA55_AA55_AA55;
    knights.is_empty() && (bishops.0 & DARK == 0 || bishops.0 & !DARK == 0)
}

/// Standard UCI text of a move (castling as the king's two-square step).
pub fn uci(b: &Board, m: Move) -> String {
    if is_castle(b, m) {
        let file = if m.to.file() > m.from.file() {
            File::G
        } else {
            File::C
        };
        let to = Square::new(file, m.from.rank());
        return format!("{}{}", m.from, to);
    }
    m.to_string()
}

/// Legal moves of `b`, in generation order.
fn legal_moves(b: &Board) -> Vec<Move> {
    let mut out = Vec::with_capacity(64);
    b.generate_moves(|pm| {
        out.extend(pm);
        false
    });
    out
}

/// Parses a move in UCI (`e2e4`, `e7e8q`, castling as `e1g1` or king-takes-rook) against the
/// legal moves of `b`.
pub fn parse_uci(b: &Board, text: &str) -> Result<Move, String> {
    let t = text.trim();
    // cozy-chess reads a move from its first bytes and let `e2e4é` pass as `e2e4`: a UCI
    // move is 4 or 5 ASCII letters and digits, nothing after.
    let ascii = (4..=5).contains(&t.len()) && t.bytes().all(|c| c.is_ascii_alphanumeric());
    let m: Move = Some(t)
        .filter(|_| ascii)
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| {
            format!(
                "move `{}` is not UCI notation (e.g. e2e4, e7e8q)",
                super::shown(t)
            )
        })?;
    let legal = legal_moves(b);
    if legal.contains(&m) {
        return Ok(m);
    }
    // Standard castling notation: the king steps two files towards a rook it may castle with.
    if b.piece_on(m.from) == Some(Piece::King) && m.promotion.is_none() {
        if let Some(&c) = legal.iter().find(|&&c| {
            is_castle(b, c) && c.from == m.from && uci(b, c) == format!("{}{}", m.from, m.to)
        }) {
            return Ok(c);
        }
    }
    // A promotion written without its piece, or with one a pawn cannot become (`a7a8k`).
    if legal
        .iter()
        .any(|c| c.from == m.from && c.to == m.to && c.promotion.is_some())
    {
        let base = format!("{}{}", m.from, m.to);
        return Err(format!(
            "move `{}` is not legal here: a pawn reaching the last rank names the piece it becomes, a queen, rook, bishop or knight; allowed: {base}q, {base}r, {base}b or {base}n",
            super::shown(t)
        ));
    }
    Err(format!("move `{}` is not legal here", super::shown(t)))
}

/// Parses a move in standard algebraic notation (`Nf3`, `exd5`, `e8=Q+`, `O-O`, `Rad1`)
/// against the legal moves of `b`.
pub fn parse_san(b: &Board, text: &str) -> Result<Move, String> {
    let orig = text.trim();
    let t = unmarked(orig);
    check_marks(b, san_move(b, orig, t)?, orig, t)
}

/// `orig` without its trailing marks and glyphs (`+`, `#`, `!`, `?`).
fn unmarked(orig: &str) -> &str {
    orig.trim_end_matches(['+', '#', '!', '?'])
}

/// The one legal move that SAN `t` (`orig` without its trailing marks) names, its marks
/// unchecked.
fn san_move(b: &Board, orig: &str, t: &str) -> Result<Move, String> {
    let legal = legal_moves(b);
    let castle = match t {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(short) = castle {
        return legal
            .iter()
            .copied()
            .find(|&m| is_castle(b, m) && (m.to.file() > m.from.file()) == short)
            .ok_or_else(|| format!("move `{orig}`: castling is not legal here"));
    }
    let mut chars: Vec<char> = t.chars().filter(|&c| c != 'x' && c != '-').collect();
    let piece = match chars.first() {
        Some('N') => Some(Piece::Knight),
        Some('B') => Some(Piece::Bishop),
        Some('R') => Some(Piece::Rook),
        Some('Q') => Some(Piece::Queen),
        Some('K') => Some(Piece::King),
        _ => None,
    };
    if piece.is_some() {
        chars.remove(0);
    }
    let piece = piece.unwrap_or(Piece::Pawn);
    // Promotion: `=Q` or a trailing piece letter.
    let mut promotion = None;
    if let Some(&last) = chars.last() {
        let p = match last.to_ascii_uppercase() {
            'N' if last.is_ascii_uppercase() => Some(Piece::Knight),
            'B' if last.is_ascii_uppercase() => Some(Piece::Bishop),
            'R' => Some(Piece::Rook),
            'Q' => Some(Piece::Queen),
            _ => None,
        };
        if p.is_some() && piece == Piece::Pawn {
            promotion = p;
            chars.pop();
            if chars.last() == Some(&'=') {
                chars.pop();
            }
        }
    }
    let bad = || format!("move `{orig}` is not SAN (e.g. Nf3, exd5, e8=Q, O-O) nor UCI");
    if chars.len() < 2 {
        return Err(bad());
    }
    let dest: String = chars[chars.len() - 2..].iter().collect();
    let to: Square = dest.parse().map_err(|_| bad())?;
    let mut from_file = None;
    let mut from_rank = None;
    for &c in &chars[..chars.len() - 2] {
        match c {
            'a'..='h' => from_file = Some(File::index(c as usize - 'a' as usize)),
            '1'..='8' => from_rank = Some(Rank::index(c as usize - '1' as usize)),
            _ => return Err(bad()),
        }
    }
    let found: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| {
            !is_castle(b, m)
                && b.piece_on(m.from) == Some(piece)
                && m.to == to
                && m.promotion == promotion
                && from_file.is_none_or(|f| m.from.file() == f)
                && from_rank.is_none_or(|r| m.from.rank() == r)
        })
        .collect();
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(format!("move `{orig}` is not legal here")),
        _ => Err(format!("move `{orig}` is ambiguous here")),
    }
}

/// `m`, the one legal move that `orig` names, unless its marks contradict it: `x` on a move
/// that takes nothing, `+` on one that gives no check, `#` on one that does not mate. (A mark
/// left out, a square more than needed, and `!`/`?` glyphs still name the move, as test
/// suites in the wild write them.)
fn check_marks(b: &Board, m: Move, orig: &str, t: &str) -> Result<Move, String> {
    let takes = b.colors(!b.side_to_move()).has(m.to)
        || (b.piece_on(m.from) == Some(Piece::Pawn) && m.from.file() != m.to.file());
    let marks = orig[t.len()..].trim_end_matches(['!', '?']);
    let mut after = b.clone();
    after.play_unchecked(m);
    let check = || !after.checkers().is_empty();
    let wrong = if t.contains('x') && !takes {
        Some("`x`, but it takes nothing")
    } else if marks.contains('#') && !(check() && legal_moves(&after).is_empty()) {
        Some("`#`, but it does not mate")
    } else if marks.contains('+') && !check() {
        Some("`+`, but it gives no check")
    } else {
        None
    };
    match wrong {
        Some(why) => Err(format!(
            "move `{orig}` is marked {why} here (it is {}); allowed: the move's own marks, or none",
            uci(b, m)
        )),
        None => Ok(m),
    }
}

/// Parses a move in SAN, or failing that UCI; either way its marks must fit it (`e7e8q+`
/// gives check, as `e8=Q+` must).
pub fn parse_san_or_uci(b: &Board, text: &str) -> Result<Move, String> {
    let orig = text.trim();
    let t = unmarked(orig);
    let m = san_move(b, orig, t).or_else(|e| parse_uci(b, t).map_err(|_| e))?;
    check_marks(b, m, orig, t)
}

/// How an EPD line is written, for errors in one.
const EPD_HELP: &str = "an EPD line is the four FEN fields (board, side to move, castling, en passant) followed by operations, each ending with `;`, e.g. `bm Qd1+; id \"BK.01\";`";

const FIELDS_HELP: &str = "a FEN has six fields: board, side to move (w/b), castling (KQkq or -), en passant (e.g. e3 or -), halfmove clock, fullmove number; an EPD line has the first four, then operations such as `bm Nf3; id \"x\";`";

/// Checks the board field of a FEN.
fn check_board_field(f: &str) -> Result<(), String> {
    if !f.contains('/') {
        return Err(format!(
            "no position: `{}` is not a board (8 ranks separated by `/`, e.g. rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR); {FIELDS_HELP}",
            super::shown(f)
        ));
    }
    let ranks: Vec<&str> = f.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "board field `{f}` has {} ranks; it needs 8 separated by `/`",
            ranks.len()
        ));
    }
    for (i, r) in ranks.iter().enumerate() {
        let mut squares = 0;
        let mut digit_before = false;
        for c in r.chars() {
            if c.is_ascii_digit() && digit_before {
                return Err(format!(
                    "board field: rank {} (`{r}`) has two digits in a row; one digit counts all the empty squares between two pieces",
                    8 - i
                ));
            }
            digit_before = c.is_ascii_digit();
            match c {
                '1'..='8' => squares += c as u32 - '0' as u32,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    squares += 1
                }
                _ => {
                    return Err(format!(
                        "board field: rank {} (`{r}`) has `{c}`; allowed: pnbrqk (black), PNBRQK (white), digits 1-8 (empty squares)",
                        8 - i
                    ))
                }
            }
        }
        if squares != 8 {
            return Err(format!(
                "board field: rank {} (`{r}`) covers {squares} squares; it must cover 8",
                8 - i
            ));
        }
    }
    Ok(())
}

/// Finds why cozy-chess rejects a board that is well formed in text.
fn diagnose_board(board_field: &str, side: &str) -> String {
    let count = |c: char| board_field.chars().filter(|&x| x == c).count();
    for (c, name) in [('K', "white"), ('k', "black")] {
        match count(c) {
            0 => return format!("illegal position: no {name} king"),
            1 => {}
            n => return format!("illegal position: {n} {name} kings"),
        }
    }
    let ranks: Vec<&str> = board_field.split('/').collect();
    if ranks[0].contains(['p', 'P']) || ranks[7].contains(['p', 'P']) {
        return "illegal position: a pawn on the first or eighth rank".to_string();
    }
    for (p, name) in [('P', "white"), ('p', "black")] {
        if count(p) > 8 {
            return format!("illegal position: {} {name} pawns", count(p));
        }
    }
    let white = board_field
        .chars()
        .filter(|c| c.is_ascii_uppercase())
        .count();
    let black = board_field
        .chars()
        .filter(|c| c.is_ascii_lowercase())
        .count();
    if white > 16 || black > 16 {
        return format!(
            "illegal position: {white} white and {black} black pieces (at most 16 each)"
        );
    }
    let (mover, waiting) = if side == "w" {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    if checkers(board_field, waiting) > 0 {
        let name = if side == "w" { "black" } else { "white" };
        return format!("illegal position: the side not to move ({name}) is in check");
    }
    match checkers(board_field, mover) {
        n @ 3.. => format!(
            "illegal position: the side to move is in check by {n} pieces; one move gives check with at most two"
        ),
        // (cozy-chess takes two checkers; the impossible double checks are diagnosed after it.)
        _ => "illegal position: the board cannot arise in a game".to_string(),
    }
}

/// The pieces giving check to `color`'s king on a well-formed board field with one king of
/// each colour (counted here because cozy-chess refuses such a board before it can tell). A
/// king gives no check: kings side by side are named by their own check.
fn checkers(board_field: &str, color: Color) -> u32 {
    let mut pieces = Vec::new();
    for (i, rank) in board_field.split('/').enumerate() {
        let mut file = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
                continue;
            }
            let square = Square::new(File::index(file), Rank::index(7 - i));
            let owner = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let piece = match c.to_ascii_lowercase() {
                'p' => Piece::Pawn,
                'n' => Piece::Knight,
                'b' => Piece::Bishop,
                'r' => Piece::Rook,
                'q' => Piece::Queen,
                _ => Piece::King,
            };
            pieces.push((square, piece, owner));
            file += 1;
        }
    }
    let occupied = pieces
        .iter()
        .fold(BitBoard::EMPTY, |b, &(sq, _, _)| b | sq.bitboard());
    let Some(&(king, _, _)) = pieces
        .iter()
        .find(|&&(_, p, c)| p == Piece::King && c == color)
    else {
        return 0;
    };
    let attacks = |piece: Piece| match piece {
        Piece::Pawn => cozy_chess::get_pawn_attacks(king, color),
        Piece::Knight => cozy_chess::get_knight_moves(king),
        Piece::Bishop => cozy_chess::get_bishop_moves(king, occupied),
        Piece::Rook => cozy_chess::get_rook_moves(king, occupied),
        Piece::Queen => {
            cozy_chess::get_bishop_moves(king, occupied)
                | cozy_chess::get_rook_moves(king, occupied)
        }
        Piece::King => BitBoard::EMPTY,
    };
    pieces
        .iter()
        .filter(|&&(sq, p, c)| c != color && attacks(p).has(sq))
        .count() as u32
}

/// Each castling right needs its king and rook on their original squares. cozy-chess, in
/// standard mode, takes a king anywhere on its back rank with a rook on the right side of it
/// (Chess960's rule), and would then generate a castle standard chess does not have.
fn check_castling_squares(board: &Board, castling: &str) -> Result<(), String> {
    for c in castling.chars().filter(|&c| c != '-') {
        let (color, rook) = match c {
            'K' => (Color::White, Square::H1),
            'Q' => (Color::White, Square::A1),
            'k' => (Color::Black, Square::H8),
            _ => (Color::Black, Square::A8),
        };
        let king = if color == Color::White {
            Square::E1
        } else {
            Square::E8
        };
        if board.king(color) != king || !board.colored_pieces(color, Piece::Rook).has(rook) {
            return Err(format!(
                "castling field `{castling}` does not match the board: `{c}` needs the king on {king} and a rook on {rook}"
            ));
        }
    }
    Ok(())
}

/// A double check that no move can give. The last move gives every check of the side to
/// move: one by the piece that moved and one discovered behind it, and a discovered check
/// comes from a bishop, rook or queen. So two knights or pawns never check together; nor do
/// two pieces on one line through the king, since the piece that moved onto that line could
/// not have blocked the other before it moved (cozy-chess refuses only three checkers).
fn check_double_check(board: &Board) -> Result<(), String> {
    let checkers = board.checkers();
    if checkers.len() != 2 {
        return Ok(());
    }
    let king = board.king(board.side_to_move());
    let sq: Vec<Square> = checkers.into_iter().collect();
    let slider = |s: Square| {
        matches!(
            board.piece_on(s),
            Some(Piece::Bishop | Piece::Rook | Piece::Queen)
        )
    };
    let line = |s: Square| {
        let (df, dr) = (
            s.file() as i32 - king.file() as i32,
            s.rank() as i32 - king.rank() as i32,
        );
        match (df, dr) {
            (0, _) => 0,
            (_, 0) => 1,
            _ if df == dr => 2,
            _ if df == -dr => 3,
            _ => 4 + (s as i32),
        }
    };
    if !slider(sq[0]) && !slider(sq[1]) {
        return Err(format!(
            "illegal position: an impossible double check (from {} and {}: a double check needs a bishop, rook or queen among the checkers)",
            sq[0], sq[1]
        ));
    }
    if line(sq[0]) == line(sq[1]) {
        return Err(format!(
            "illegal position: an impossible double check (from {} and {}, on one line through the king on {king})",
            sq[0], sq[1]
        ));
    }
    Ok(())
}

/// The parts of a position's text.
struct Parsed {
    board: Board,
    moves: Vec<String>,
    ops: EpdOps,
    /// The EPD operations as written (normalized), for the canonical text.
    op_text: Option<String>,
}

/// Splits EPD operations on `;` outside quotes.
fn split_ops(s: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut ops = Vec::new();
    let mut cur = String::new();
    let mut in_quote = false;
    let mut parts = Vec::new();
    for c in s.chars() {
        match c {
            '"' => {
                in_quote = !in_quote;
                cur.push(c);
            }
            ';' if !in_quote => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if in_quote {
        return Err(format!(
            "EPD operations `{s}`: a quoted string is not closed"
        ));
    }
    if !cur.trim().is_empty() {
        return Err(format!(
            "EPD operation `{}` does not end with `;`; {EPD_HELP}",
            cur.trim()
        ));
    }
    for p in parts {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        let (opcode, rest) = p.split_once(char::is_whitespace).unwrap_or((p, ""));
        if !opcode
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            || !opcode
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            if opcode.parse::<u64>().is_ok() {
                return Err(format!(
                    "EPD operations `{s}` start with the number `{opcode}`: an EPD line has no clock fields after the four FEN fields (drop them, or write `hmvc 0; fmvn 1;`); {EPD_HELP}"
                ));
            }
            return Err(format!(
                "EPD operation `{p}`: `{opcode}` is not an opcode (a letter, then letters, digits or _); {EPD_HELP}"
            ));
        }
        let rest = rest.trim();
        let operands = if rest.starts_with('"') {
            vec![rest.trim_matches('"').to_string()]
        } else {
            rest.split_whitespace().map(|s| s.to_string()).collect()
        };
        ops.push((opcode.to_string(), operands));
    }
    Ok(ops)
}

/// The FEN field `i` of `tokens`, named `name` in the error when it is missing.
fn field<'a>(tokens: &[&'a str], i: usize, name: &str) -> Result<&'a str, String> {
    tokens
        .get(i)
        .copied()
        .ok_or_else(|| format!("the {name} field is missing; {FIELDS_HELP}"))
}

/// `start` (or `startpos`), optionally followed by `moves m1 m2 ...`.
fn parse_start(t: &str, tokens: &[&str]) -> Result<Parsed, String> {
    let moves = match tokens.get(1) {
        None => vec![],
        Some(&"moves") => tokens[2..].iter().map(|s| s.to_string()).collect(),
        Some(x) => {
            return Err(format!(
                "position `{t}`: after `start` only `moves m1 m2 ...` may follow, not `{x}`"
            ))
        }
    };
    Ok(Parsed {
        board: Board::default(),
        moves,
        ops: EpdOps::default(),
        op_text: None,
    })
}

/// Checks the side-to-move field.
fn check_side(side: &str) -> Result<(), String> {
    if side != "w" && side != "b" {
        return Err(format!(
            "side-to-move field `{side}`: allowed: w (white) or b (black)"
        ));
    }
    Ok(())
}

/// Checks the castling field on its own (the board decides whether the rights fit it).
fn check_castling(castling: &str) -> Result<(), String> {
    if castling != "-" {
        let mut seen = String::new();
        for c in castling.chars() {
            if !"KQkq".contains(c) || seen.contains(c) {
                return Err(format!(
                    "castling field `{castling}`: allowed: `-` or each of K, Q, k, q at most once"
                ));
            }
            seen.push(c);
        }
    }
    Ok(())
}

/// Checks the en-passant field against the side to move (the board decides whether a pawn
/// can just have stepped past it).
fn check_ep(ep: &str, side: &str) -> Result<(), String> {
    if ep != "-" {
        let want = if side == "w" { '6' } else { '3' };
        let ok = ep.len() == 2
            && ep.as_bytes()[0].is_ascii_lowercase()
            && (b'a'..=b'h').contains(&ep.as_bytes()[0])
            && ep.as_bytes()[1] as char == want;
        if !ok {
            return Err(format!(
                "en-passant field `{ep}`: allowed: `-` or the square behind a pawn that just stepped two, on rank {want} with {} to move (e.g. e{want})",
                if side == "w" { "white" } else { "black" }
            ));
        }
    }
    Ok(())
}

/// What follows a position's four FEN fields: the clocks (FEN, or EPD's `hmvc`/`fmvn`; as
/// written, checked later), the moves after `moves`, and the EPD operations (as written, and
/// split).
struct Tail {
    halfmove: String,
    fullmove: String,
    moves: Vec<String>,
    op_text: Option<String>,
    ops: Vec<(String, Vec<String>)>,
}

/// Reads what follows the four FEN fields of `t` (split into `tokens`): clocks (FEN), `moves`,
/// or EPD operations.
fn parse_tail(t: &str, tokens: &[&str]) -> Result<Tail, String> {
    let mut tail = Tail {
        halfmove: "0".to_string(),
        fullmove: "1".to_string(),
        moves: Vec::new(),
        op_text: None,
        ops: Vec::new(),
    };
    match tokens.get(4) {
        None => {}
        Some(&"moves") => tail.moves = tokens[5..].iter().map(|s| s.to_string()).collect(),
        // An opcode (a letter first) where a FEN has its clocks, not followed by a fullmove
        // number as the last field: EPD operations lacking `;`.
        Some(x)
            if !tokens[4..].iter().any(|t| t.contains(';'))
                && x.starts_with(|c: char| c.is_ascii_alphabetic())
                && !(tokens.len() == 6 && tokens[5].parse::<u32>().is_ok()) =>
        {
            return Err(format!(
                "`{}` after the four FEN fields is neither the clocks nor `moves`: EPD operations must each end with `;`; {EPD_HELP}",
                tokens[4..].join(" ")
            ));
        }
        // EPD operations end with `;`; without one, fields five and six are the clocks.
        Some(x) if !tokens[4..].iter().any(|t| t.contains(';')) => {
            tail.halfmove = x.to_string();
            tail.fullmove = field(tokens, 5, "fullmove-number")?.to_string();
            match tokens.get(6) {
                None => {}
                Some(&"moves") => tail.moves = tokens[7..].iter().map(|s| s.to_string()).collect(),
                Some(y) => {
                    return Err(format!(
                        "`{y}` after the six FEN fields; only `moves m1 m2 ...` may follow"
                    ))
                }
            }
        }
        Some(_) => {
            // EPD: the operations start after the fourth field.
            let mut idx = 0;
            for _ in 0..4 {
                let s = &t[idx..];
                let start = s.find(|c: char| !c.is_whitespace()).unwrap_or(0);
                let len = s[start..]
                    .find(char::is_whitespace)
                    .unwrap_or(s.len() - start);
                idx += start + len;
            }
            let op_src = t[idx..].trim();
            tail.ops = split_ops(op_src)?;
            // Kept as written, but for control characters (a tab between operations, one
            // inside a quoted `id`), written as spaces: runs.csv and report.md hold no control
            // character, and `harness plot` refuses one.
            let printable = |c: char| if c.is_control() { ' ' } else { c };
            tail.op_text = Some(op_src.chars().map(printable).collect());
        }
    }
    let (mut hmvc, mut fmvn) = (false, false);
    for (code, operands) in &tail.ops {
        let (seen, clock) = match code.as_str() {
            "hmvc" => (&mut hmvc, &mut tail.halfmove),
            "fmvn" => (&mut fmvn, &mut tail.fullmove),
            _ => continue,
        };
        // A second clock would either repeat the first or contradict it.
        if std::mem::replace(seen, true) {
            return Err(format!(
                "EPD operation `{code}` is given twice; allowed: one `{code}`"
            ));
        }
        // One number: `hmvc;` gives none, and in `hmvc 5 6;` the 6 would be dropped unread.
        match operands.as_slice() {
            [n] => *clock = n.clone(),
            _ => {
                let allowed = if code == "hmvc" {
                    "one whole number from 0 to 100, as in `hmvc 0;`"
                } else {
                    "one whole number from 1 to 65535, as in `fmvn 1;`"
                };
                let given = match operands.len() {
                    0 => "no operand".to_string(),
                    n => format!("{n} operands"),
                };
                return Err(format!(
                    "EPD operation `{code}` has {given}; allowed: {allowed}"
                ));
            }
        }
    }
    Ok(tail)
}

/// Checks the clocks: the halfmove clock from 0 to 100, the fullmove number from 1 to 65535
/// (named as the EPD operation that gave them, if one did).
fn check_clocks(tail: &Tail) -> Result<(), String> {
    let number = super::parse_digits::<u32>;
    let named = |code: &str, field: &str, value: &str| {
        if tail.ops.iter().any(|(c, _)| c == code) {
            format!("EPD operation `{code} {value};`")
        } else {
            format!("{field} field `{value}`")
        }
    };
    match number(&tail.halfmove) {
        Some(h) if h <= 100 => {}
        _ => {
            return Err(format!(
                "{}: allowed: a whole number from 0 to 100",
                named("hmvc", "halfmove-clock", &tail.halfmove)
            ))
        }
    }
    match number(&tail.fullmove) {
        Some(f) if (1..=u16::MAX as u32).contains(&f) => {}
        _ => {
            return Err(format!(
                "{}: allowed: a whole number from 1 to 65535",
                named("fmvn", "fullmove-number", &tail.fullmove)
            ))
        }
    }
    Ok(())
}

/// Refuses material no game reaches: more pieces beyond a side's first queen, two rooks, two
/// bishops and two knights than its missing pawns could have promoted to (each promotion
/// takes a pawn off the board).
fn check_material(board: &Board) -> Result<(), String> {
    for color in [Color::White, Color::Black] {
        let count = |p: Piece| (board.colors(color) & board.pieces(p)).len() as i32;
        let pawns = count(Piece::Pawn);
        let extra = (count(Piece::Queen) - 1).max(0)
            + (count(Piece::Rook) - 2).max(0)
            + (count(Piece::Bishop) - 2).max(0)
            + (count(Piece::Knight) - 2).max(0);
        let side = if color == Color::White {
            "white"
        } else {
            "black"
        };
        // (More than 8 pawns, or 16 pieces, cozy-chess refuses itself: `diagnose_board`.)
        if extra > 8 - pawns {
            return Err(format!(
                "illegal position: {side} has {extra} piece{} beyond one queen and two each of rooks, bishops and knights, which only promotions give, but {pawns} pawn{} left: at most {} promotion{}; allowed: material a game can reach",
                if extra == 1 { "" } else { "s" },
                if pawns == 1 { "" } else { "s" },
                8 - pawns,
                if 8 - pawns == 1 { "" } else { "s" }
            ));
        }
    }
    Ok(())
}

/// The EPD operations a test suite uses: `id`, and the moves of `bm` and `am` (SAN or UCI,
/// each legal on `board`).
fn suite_ops(board: &Board, ops: &[(String, Vec<String>)]) -> Result<EpdOps, String> {
    let mut out = EpdOps::default();
    let mut seen: Vec<&str> = Vec::new();
    for (code, operands) in ops {
        if ["id", "bm", "am"].contains(&code.as_str()) {
            // A second `bm` would either repeat the first or contradict it.
            if seen.contains(&code.as_str()) {
                let one = if code == "id" {
                    "one `id`".to_string()
                } else {
                    format!("one `{code}`, listing all its moves (`{code} e4 d4;`)")
                };
                return Err(format!(
                    "EPD operation `{code}` is given twice; allowed: {one}"
                ));
            }
            seen.push(code);
        }
        let list = match code.as_str() {
            "id" => {
                out.id = Some(operands.join(" "));
                continue;
            }
            "bm" => &mut out.bm,
            "am" => &mut out.am,
            _ => continue,
        };
        if operands.is_empty() {
            return Err(format!("EPD operation `{code}` names no move"));
        }
        for o in operands {
            let m =
                parse_san_or_uci(board, o).map_err(|e| format!("EPD operation `{code}`: {e}"))?;
            if list.contains(&m) {
                return Err(format!(
                    "EPD operation `{code}` lists the move `{o}` twice (in any spelling); allowed: each move once"
                ));
            }
            list.push(m);
        }
    }
    // A move both best and to avoid: bm_hit could not say whether finding it is right.
    if let Some(m) = out.bm.iter().find(|m| out.am.contains(m)) {
        return Err(format!(
            "EPD operations `bm` and `am` both list the move {m}; allowed: a move in one of them"
        ));
    }
    Ok(out)
}

/// Parses `start` or a FEN (either optionally followed by `moves m1 m2 ...`), or an EPD line,
/// checking each field and the position itself (a board no game reaches is refused).
fn parse_text(text: &str) -> Result<Parsed, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(format!(
            "empty position; write `start`, a FEN or an EPD line ({FIELDS_HELP})"
        ));
    }
    let tokens: Vec<&str> = t.split_whitespace().collect();
    if tokens[0] == "start" || tokens[0] == "startpos" {
        return parse_start(t, &tokens);
    }
    check_board_field(tokens[0])?;
    let side = field(&tokens, 1, "side-to-move")?;
    check_side(side)?;
    let castling = field(&tokens, 2, "castling")?;
    check_castling(castling)?;
    let ep = field(&tokens, 3, "en-passant")?;
    check_ep(ep, side)?;
    let tail = parse_tail(t, &tokens)?;
    check_clocks(&tail)?;
    let fen = format!(
        "{} {side} {castling} {ep} {} {}",
        tokens[0], tail.halfmove, tail.fullmove
    );
    let board = Board::from_fen(&fen, false).map_err(|e| match e {
        FenParseError::InvalidBoard => diagnose_board(tokens[0], side),
        FenParseError::InvalidCastlingRights => format!(
            "castling field `{castling}` does not match the board: each right needs its king and rook on their original squares"
        ),
        FenParseError::InvalidEnPassant => format!(
            "en-passant field `{ep}` does not match the board: no pawn can just have stepped two squares past it"
        ),
        other => format!("FEN `{}`: {other}", super::shown(&fen)),
    })?;
    // cozy-chess accepts two kings side by side, a position no game reaches, and its move
    // generator then lets one king take the other.
    let (wk, bk) = (board.king(Color::White), board.king(Color::Black));
    if cozy_chess::get_king_moves(wk).has(bk) {
        return Err(format!(
            "illegal position: the kings stand side by side ({wk} and {bk})"
        ));
    }
    check_castling_squares(&board, castling)?;
    check_double_check(&board)?;
    check_material(&board)?;
    let ops = suite_ops(&board, &tail.ops)?;
    Ok(Parsed {
        board,
        moves: tail.moves,
        ops,
        op_text: tail.op_text,
    })
}

impl Chess {
    /// A game from a board, which becomes the search root.
    pub fn from_board(board: Board) -> Self {
        let mut stack = Vec::with_capacity(128);
        stack.push(board);
        Chess {
            stack,
            root: 0,
            ops: EpdOps::default(),
        }
    }

    /// Parses `start`, a FEN (optionally followed by `moves ...`) or an EPD line; the
    /// position reached becomes the search root. Errors say which field is wrong and why.
    pub fn parse_position(text: &str) -> Result<Self, String> {
        // The messages quote the fields and moves as written: a control character there is
        // escaped (escaping twice changes nothing: an escape holds none).
        Self::parse_as_written(text).map_err(|e| super::escaped(&e).into_owned())
    }

    fn parse_as_written(text: &str) -> Result<Self, String> {
        let p = parse_text(text)?;
        let mut g = Chess::from_board(p.board);
        g.ops = p.ops;
        for m in &p.moves {
            // A clock past 100 is refused in a FEN: the moves cannot reach one either.
            if g.board().halfmove_clock() >= 100 {
                return Err(format!(
                    "in `moves`: move `{}` comes after the fifty-move rule ended the game (halfmove clock 100); allowed: the moves up to that point",
                    super::shown(m)
                ));
            }
            let mv = parse_uci(g.board(), m).map_err(|e| format!("in `moves`: {e}"))?;
            g.make(mv);
        }
        g.root = g.stack.len() - 1;
        Ok(g)
    }

    /// Whether a position's text is an EPD line with a `bm` or `am` operation.
    pub fn carries_suite_moves(text: &str) -> bool {
        parse_text(text).is_ok_and(|p| !p.ops.bm.is_empty() || !p.ops.am.is_empty())
    }

    /// The canonical text of a position: FEN (plus `moves ...` as given), or for an EPD line
    /// its four fields and operations (so `bm`/`am` stay with the run).
    pub fn canonical(text: &str) -> Result<String, String> {
        let g = Chess::parse_position(text)?;
        let p = parse_text(text)?;
        let fen = g.stack[0].to_string();
        Ok(match p.op_text {
            Some(ops) => {
                let four: Vec<&str> = fen.split(' ').take(4).collect();
                format!("{} {ops}", four.join(" "))
            }
            None if p.moves.is_empty() => fen,
            None => format!("{fen} moves {}", p.moves.join(" ")),
        })
    }

    /// The current board.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        self.stack
            .last()
            .expect("the stack holds at least the root")
    }

    /// Plies played since the search root.
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.stack.len() - 1 - self.root
    }

    /// The position's EPD operations (empty unless it came from an EPD line).
    pub fn ops(&self) -> &EpdOps {
        &self.ops
    }

    /// Whether the current position occurred earlier on the path, within the halfmove clock.
    #[inline]
    fn repeated(&self) -> bool {
        let n = self.stack.len() - 1;
        let b = &self.stack[n];
        let reach = (b.halfmove_clock() as usize).min(n);
        let h = b.hash();
        let mut back = 4;
        while back <= reach {
            if self.stack[n - back].hash() == h {
                return true;
            }
            back += 2;
        }
        false
    }
}

impl Game for Chess {
    type Move = Move;
    const NAME: &'static str = "chess";
    const NOISY: bool = true;

    fn max_moves(&self) -> usize {
        218
    }

    /// from × 64 + to, plus 4,096 × promotion (none, N, B, R, Q).
    fn move_space(&self) -> usize {
        64 * 64 * 5
    }

    #[inline(always)]
    fn move_index(&self, m: Move) -> usize {
        let promo = match m.promotion {
            None => 0,
            Some(Piece::Knight) => 1,
            Some(Piece::Bishop) => 2,
            Some(Piece::Rook) => 3,
            Some(_) => 4,
        };
        promo * 4096 + m.from as usize * 64 + m.to as usize
    }

    #[inline]
    fn moves(&self, out: &mut Vec<Move>) {
        self.board().generate_moves(|pm| {
            out.extend(pm);
            false
        });
    }

    #[inline]
    fn make(&mut self, m: Move) {
        let n = self.stack.len();
        // Copy the top board in place, then play the move on the copy.
        self.stack.extend_from_within(n - 1..n);
        self.stack[n].play_unchecked(m);
    }

    #[inline]
    fn count_moves(&self, _scratch: &mut Vec<Move>) -> u64 {
        let mut n = 0;
        self.board().generate_moves(|pm| {
            n += pm.len() as u64;
            false
        });
        n
    }

    #[inline]
    fn unmake(&mut self, _m: Move) {
        debug_assert!(self.stack.len() > 1);
        self.stack.pop();
    }

    fn outcome(&self) -> Option<i32> {
        let b = self.board();
        if self.repeated() || insufficient_material(b) {
            return Some(0);
        }
        let has_move = b.generate_moves(|_| true);
        if !has_move {
            return Some(if b.checkers().is_empty() {
                0
            } else {
                -(MATE - self.ply() as i32)
            });
        }
        if b.halfmove_clock() >= 100 {
            return Some(0);
        }
        None
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        let b = self.board();
        let w = evaluate_white(b);
        if b.side_to_move() == Color::White {
            w
        } else {
            -w
        }
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.board().hash()
    }

    /// Mate scores ±(MATE − ply) carry their distance; no evaluation comes near them.
    fn win_threshold(&self) -> Option<i32> {
        Some(MATE - 10_000)
    }

    fn side_to_move(&self) -> Side {
        // The side to move at the root is not necessarily White; `Side::First` is White.
        match self.board().side_to_move() {
            Color::White => Side::First,
            Color::Black => Side::Second,
        }
    }

    /// Chess has no useful bound (the fifty-move rule allows thousands of plies);
    /// `depth = "full"` is refused for chess when the plan is built.
    fn max_remaining_plies(&self) -> u32 {
        u32::MAX
    }

    /// MVV-LVA: captures and promotions by material gained (the victim's value plus the
    /// promotion gain), most first; among equal gains, the least valuable mover first; quiet
    /// moves score 0 and keep the natural order.
    #[inline]
    fn static_score(&self, m: Move) -> i32 {
        let b = self.board();
        let g = gain(b, m);
        if g == 0 {
            return 0;
        }
        let mover = b.piece_on(m.from).map(|p| p as i32).unwrap_or(0);
        g * 8 + (7 - mover)
    }

    fn format_move(&self, m: Move) -> String {
        uci(self.board(), m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        parse_uci(self.board(), text)
    }

    fn format_position(&self) -> String {
        self.board().to_string()
    }

    fn noisy_moves(&self, out: &mut Vec<Move>, kinds: NoisyKinds) {
        let b = self.board();
        let us = b.side_to_move();
        let them = b.colors(!us);
        let ep = b
            .en_passant()
            .map(|f| Square::new(f, Rank::Sixth.relative_to(us)).bitboard())
            .unwrap_or(BitBoard::EMPTY);
        let last = Rank::Eighth.relative_to(us).bitboard();
        b.generate_moves(|mut pm| {
            let mut targets = them;
            if pm.piece == Piece::Pawn {
                targets |= ep;
                if kinds.promotions {
                    targets |= last;
                }
            }
            if !kinds.checks {
                // Only the noisy destinations: no need to look at quiet moves one by one.
                pm.to &= targets;
            }
            for m in pm {
                let noisy = targets.has(m.to)
                    && !(m.promotion.is_some() && m.promotion != Some(Piece::Queen));
                if noisy {
                    out.push(m);
                } else if kinds.checks && m.promotion.is_none() && !is_castle(b, m) {
                    let mut after = b.clone();
                    after.play_unchecked(m);
                    if !after.checkers().is_empty() {
                        out.push(m);
                    }
                }
            }
            false
        });
    }

    #[inline]
    fn in_check(&self) -> bool {
        !self.board().checkers().is_empty()
    }

    #[inline]
    fn gain_bound(&self, m: Move) -> i32 {
        gain(self.board(), m)
    }

    fn suite_hit(&self, m: Move) -> Option<bool> {
        if !self.ops.bm.is_empty() {
            Some(self.ops.bm.contains(&m))
        } else if !self.ops.am.is_empty() {
            Some(!self.ops.am.contains(&m))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_eval_is_zero_and_symmetric() {
        let g = Chess::default();
        assert_eq!(g.evaluate(), 0);
        let g = Chess::parse_position("start moves e2e4").unwrap();
        assert_eq!(
            g.evaluate(),
            -40,
            "the e-pawn goes from -20 (e2) to +20 (e4): +40 for White, Black to move"
        );
    }

    #[test]
    fn castling_is_standard_uci() {
        let g = Chess::parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = g.parse_move("e1g1").unwrap();
        assert_eq!(g.format_move(m), "e1g1");
        let m = g.parse_move("e1c1").unwrap();
        assert_eq!(g.format_move(m), "e1c1");
        assert!(g.parse_move("e1f1").is_ok());
    }

    /// A UCI move is the move and nothing after it: cozy-chess alone read `e2e4é` as `e2e4`.
    #[test]
    fn uci_text_after_the_move_is_refused() {
        let b = Board::default();
        assert_eq!(parse_uci(&b, "e2e4").unwrap().to_string(), "e2e4");
        for t in [
            "e2e4é",
            "e2e4\u{202e}g7g5",
            "e2e4x",
            "e2e",
            "é2e4",
            "e7e8qq",
        ] {
            let e = parse_uci(&b, t).unwrap_err();
            assert!(
                e.contains("is not UCI notation") || e.contains("not legal"),
                "{t}: {e}"
            );
        }
        assert!(parse_uci(&b, "e2e4é")
            .unwrap_err()
            .contains("is not UCI notation"));
    }

    #[test]
    fn san() {
        let b = Board::default();
        assert_eq!(parse_san(&b, "Nf3").unwrap().to_string(), "g1f3");
        assert_eq!(parse_san(&b, "e4").unwrap().to_string(), "e2e4");
        assert!(parse_san(&b, "Ne4").is_err());
        let b: Board = "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1".parse().unwrap();
        assert_eq!(parse_san(&b, "b8=Q+").unwrap().to_string(), "b7b8q");
        assert_eq!(uci(&b, parse_san(&b, "O-O-O").unwrap()), "e1c1");
        assert_eq!(parse_san(&b, "Rad1").unwrap().to_string(), "a1d1");
    }

    /// A mark that contradicts the move is refused; one left out, a square more than needed
    /// and `!`/`?` glyphs are not.
    #[test]
    fn san_marks_must_fit_the_move() {
        let san = |fen: &str, text: &str| {
            let b: Board = fen.parse().unwrap();
            parse_san(&b, text).map(|m| uci(&b, m))
        };
        let quiet = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        for (text, why) in [
            ("Kxd2", "marked `x`, but it takes nothing here (it is e1d2)"),
            (
                "Kd2+",
                "marked `+`, but it gives no check here (it is e1d2)",
            ),
            ("Kd2#", "marked `#`, but it does not mate here (it is e1d2)"),
            ("exe3", "marked `x`, but it takes nothing"),
        ] {
            let e = san(quiet, text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
        for text in ["Kd2", "Kd2!!", "Kd2?!", "K1d2", "Ked2", "Ke1d2"] {
            assert_eq!(san(quiet, text).as_deref(), Ok("e1d2"), "{text}");
        }
        // Captures, with the mark or without; en passant takes too.
        let takes = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1";
        assert_eq!(san(takes, "Kxd2").as_deref(), Ok("e1d2"));
        assert_eq!(san(takes, "Kd2").as_deref(), Ok("e1d2"));
        let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert_eq!(san(ep, "exd6").as_deref(), Ok("e5d6"));
        // Check, and mate (which is check too).
        let check = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
        assert_eq!(san(check, "Ra8+").as_deref(), Ok("a1a8"));
        assert!(san(check, "Ra8#").unwrap_err().contains("does not mate"));
        assert!(san(check, "O-O-O+").unwrap_err().contains("gives no check"));
        let mate = "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1";
        assert_eq!(san(mate, "Ra8#").as_deref(), Ok("a1a8"));
        assert_eq!(san(mate, "Ra8+").as_deref(), Ok("a1a8"));
        // UCI (as EPD's bm/am take it) with marks: the same checks.
        let either = |fen: &str, text: &str| {
            let b: Board = fen.parse().unwrap();
            parse_san_or_uci(&b, text).map(|m| uci(&b, m))
        };
        let promote = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(either(promote, "e7d8q+").as_deref(), Ok("e7d8q"));
        assert_eq!(either(promote, "e7d8=Q+").as_deref(), Ok("e7d8q"));
        for (text, why) in [
            ("e7d8q#", "does not mate"),
            ("e7d8n+", "gives no check"),
            ("e7e8qx", "takes nothing"),
        ] {
            let e = either(promote, text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
        let castle = "5k2/8/8/8/8/8/8/4K2R w K - 0 1";
        assert_eq!(either(castle, "e1g1+").as_deref(), Ok("e1g1"));
        assert_eq!(either(castle, "O-O+").as_deref(), Ok("e1g1"));
        assert_eq!(either(quiet, "e1d2!").as_deref(), Ok("e1d2"));
        assert!(either(quiet, "e1d2+")
            .unwrap_err()
            .contains("gives no check"));
    }

    #[test]
    fn key_covers_side_castling_and_ep() {
        let a = Chess::parse_position("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        let b = Chess::parse_position("4k3/8/8/8/8/8/8/R3K2R w K - 0 1").unwrap();
        let c = Chess::parse_position("4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1").unwrap();
        assert_ne!(a.key(), b.key());
        assert_ne!(a.key(), c.key());
        let d = Chess::parse_position("4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1").unwrap();
        let e = Chess::parse_position("4k3/8/8/8/4Pp2/8/8/4K3 b - - 0 1").unwrap();
        assert_ne!(d.key(), e.key());
    }

    #[test]
    fn draws_and_mates() {
        // Fool's mate: White is mated at ply 0.
        let g = Chess::parse_position("start moves f2f3 e7e5 g2g4 d8h4").unwrap();
        assert_eq!(g.outcome(), Some(-MATE));
        let mut g = Chess::parse_position("start moves f2f3 e7e5 g2g4").unwrap();
        let m = g.parse_move("d8h4").unwrap();
        g.make(m);
        assert_eq!(g.outcome(), Some(-(MATE - 1)));
        // Stalemate.
        let g = Chess::parse_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(g.outcome(), Some(0));
        // Insufficient material, and not.
        assert_eq!(
            Chess::parse_position("8/8/4k3/8/8/3BK3/8/8 w - - 0 1")
                .unwrap()
                .outcome(),
            Some(0)
        );
        assert_eq!(
            Chess::parse_position("8/8/4k3/8/8/3NKN2/8/8 w - - 0 1")
                .unwrap()
                .outcome(),
            None
        );
        // Fifty-move rule.
        assert_eq!(
            Chess::parse_position("8/8/4k3/8/8/3RK3/8/8 w - - 100 80")
                .unwrap()
                .outcome(),
            Some(0)
        );
        // Repetition along the path.
        let mut g = Chess::default();
        for t in ["g1f3", "g8f6", "f3g1"] {
            let m = g.parse_move(t).unwrap();
            g.make(m);
            assert_eq!(g.outcome(), None);
        }
        let m = g.parse_move("f6g8").unwrap();
        g.make(m);
        assert_eq!(g.outcome(), Some(0));
    }

    #[test]
    fn mvv_lva_order() {
        // The white pawn and queen can both take the rook; the pawn first; then the knight.
        let g = Chess::parse_position("4k3/8/8/2n1r3/3P4/8/8/3Q3K w - - 0 1").unwrap();
        let pxr = g.static_score(g.parse_move("d4e5").unwrap());
        let quiet = g.static_score(g.parse_move("d1d2").unwrap());
        let pxn = g.static_score(g.parse_move("d4c5").unwrap());
        assert_eq!(quiet, 0);
        assert!(pxr > pxn && pxn > 0);
    }
}
