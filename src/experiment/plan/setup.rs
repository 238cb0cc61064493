//! Game setups: a game and its options, enough to build any of its positions; the plan has one
//! per combination of the list-valued `[game]` keys.

use std::path::Path;

use super::uniform::uniform_setups;
use crate::error::Result;
use crate::experiment::config::{at, item_span, GameKind, GameSection, IntGrid};
use crate::games::chess::Chess;
use crate::games::connect4::Connect4;
use crate::games::nim::Nim;
use crate::games::tictactoe::{Scale, TicTacToe};
use crate::games::uniform::{Uniform, UniformSpec};

/// A game and its options, enough to build any of its positions.
#[derive(Clone, Debug, PartialEq)]
pub enum GameSetup {
    TicTacToe { scale: Scale },
    Nim { misere: bool },
    Chess,
    Uniform { spec: UniformSpec },
    Connect4 { width: u32, height: u32 },
}

impl GameSetup {
    pub fn kind(&self) -> GameKind {
        match self {
            GameSetup::TicTacToe { .. } => GameKind::Tictactoe,
            GameSetup::Nim { .. } => GameKind::Nim,
            GameSetup::Chess => GameKind::Chess,
            GameSetup::Uniform { .. } => GameKind::Uniform,
            GameSetup::Connect4 { .. } => GameKind::Connect4,
        }
    }

    /// The setup as run-key text, `game=NAME;option=value;...`: the run key's first parts and
    /// the input of the seeds that depend only on the setup (trees, random openings).
    pub fn key_text(&self) -> String {
        let mut text = format!("game={}", self.kind().name());
        for (k, v) in self.options() {
            text.push_str(&format!(";{k}={v}"));
        }
        text
    }

    /// The option columns of this game, as (name, value).
    pub fn options(&self) -> Vec<(&'static str, String)> {
        match self {
            GameSetup::TicTacToe { scale } => vec![("scale", scale.name().to_string())],
            GameSetup::Nim { misere } => vec![("misere", misere.to_string())],
            GameSetup::Chess => vec![],
            GameSetup::Uniform { spec } => spec.options(),
            GameSetup::Connect4 { width, height } => {
                vec![("width", width.to_string()), ("height", height.to_string())]
            }
        }
    }

    /// Checks that a position parses, and returns it in the game's canonical notation.
    pub fn canonical_position(&self, text: &str) -> std::result::Result<String, String> {
        use crate::games::Game;
        match self {
            GameSetup::TicTacToe { scale } => {
                TicTacToe::parse_position(*scale, text).map(|g| g.format_position())
            }
            GameSetup::Nim { misere } => {
                Nim::parse_position(*misere, text).map(|g| g.format_position())
            }
            GameSetup::Chess => Chess::canonical(text),
            GameSetup::Uniform { spec } => {
                Uniform::parse_position(*spec, text).map(|g| g.format_position())
            }
            GameSetup::Connect4 { width, height } => {
                Connect4::parse_position(*width, *height, text).map(|g| g.format_position())
            }
        }
    }

    /// Parses one line of a positions file: the position in canonical notation and the expected
    /// score the line gives, if any. Connect Four: the benchmark format `moves [score]`; the
    /// other games: the whole line is a position.
    pub fn parse_line(&self, line: &str) -> std::result::Result<(String, Option<i32>), String> {
        match self {
            GameSetup::Connect4 { .. } => {
                let mut parts = line.split_whitespace();
                let moves = parts.next().unwrap_or("");
                let score = match parts.next() {
                    None => None,
                    Some(s) => Some(s.parse::<i32>().map_err(|_| {
                        let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
                        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                            format!("score `{}` is out of range: scores are whole numbers from {} to {}", crate::games::shown(s), i32::MIN, i32::MAX)
                        } else {
                            format!("`{}` is not a score: the format is `moves [score]`, the score a whole number", crate::games::shown(s))
                        }
                    })?),
                };
                if let Some(extra) = parts.next() {
                    return Err(format!(
                        "unexpected `{extra}` after the score: the format is `moves [score]`"
                    ));
                }
                let canon = self.canonical_position(moves)?;
                if let (Some(s), GameSetup::Connect4 { width, height }) = (score, self) {
                    use crate::games::Game;
                    let g = Connect4::parse_position(*width, *height, &canon)?;
                    let (lo, hi) = g.possible_scores();
                    if lo == hi && g.outcome().is_some() && s != lo {
                        return Err(format!(
                            "score {s} cannot be this position's: the game is over after {} on {width}x{height}, with the score {lo}",
                            moves_text(g.plies())
                        ));
                    }
                    if !(lo..=hi).contains(&s) {
                        return Err(format!(
                            "score {s} cannot be this position's: after {} on {width}x{height} a score lies from {lo} to {hi}",
                            moves_text(g.plies())
                        ));
                    }
                }
                Ok((canon, score))
            }
            _ => self.canonical_position(line).map(|c| (c, None)).map_err(|e| {
                // A line that ends in what looks like a score: only Connect Four's have one.
                let scored = line.trim().rsplit_once(char::is_whitespace).is_some_and(|(rest, last)| {
                    last.parse::<i32>().is_ok() && self.canonical_position(rest).is_ok()
                });
                if scored {
                    format!("{e}; only Connect Four lines carry a score (`moves score`): for this game the whole line is one position")
                } else {
                    e
                }
            }),
        }
    }

    /// `count` random openings of `plies` moves from the initial position (rule in
    /// `experiment::positions`), in canonical notation.
    pub fn random_openings(
        &self,
        count: u32,
        plies: u32,
        seed: u64,
    ) -> std::result::Result<Vec<String>, String> {
        use crate::experiment::positions::random_openings_as;
        use crate::games::Game;
        // Each opening becomes its text as it is found: the games are not all held at once.
        fn text<G: Game>(
            start: &G,
            count: u32,
            plies: u32,
            seed: u64,
        ) -> std::result::Result<Vec<String>, String> {
            random_openings_as(start, count, plies, seed, G::format_position)
        }
        match self {
            GameSetup::TicTacToe { scale } => text(&TicTacToe::new(*scale), count, plies, seed),
            GameSetup::Connect4 { width, height } => {
                text(&Connect4::new(*width, *height), count, plies, seed)
            }
            GameSetup::Chess => text(&Chess::parse_position("start")?, count, plies, seed),
            GameSetup::Nim { .. } => {
                Err("Nim has no initial position to open from; list heap sizes in positions".into())
            }
            GameSetup::Uniform { .. } => {
                Err("uniform trees take no random openings; choose trees with `trees = N`".into())
            }
        }
    }

    /// What makes two positions of this setup one position for a search: the canonical text,
    /// but for Connect Four, whose move lists reach one board in several orders: the board.
    pub fn identity(&self, position: &str) -> String {
        use crate::games::Game;
        match self {
            GameSetup::Connect4 { width, height } => {
                Connect4::parse_position(*width, *height, position)
                    .map(|g| format!("board {:x}", g.key()))
                    .unwrap_or_else(|_| position.to_string())
            }
            _ => position.to_string(),
        }
    }

    /// A value of `position` in the game's external score convention (`Game::external_score`).
    pub fn external_score(&self, position: &str, value: i32) -> Option<i32> {
        use crate::games::Game;
        match self {
            GameSetup::Connect4 { width, height } => {
                Connect4::parse_position(*width, *height, position)
                    .ok()
                    .map(|g| g.external_score(value))
            }
            _ => Some(value),
        }
    }
}

/// Every option column any game can have, in CSV order.
pub const OPTION_COLUMNS: [&str; 8] = [
    "scale",
    "misere",
    "branching",
    "height",
    "values",
    "range",
    "model",
    "width",
];

/// The games `[game] kind` lists and their setups: every kind × its options' values. Every
/// option given must apply to some listed kind.
pub fn game_setups(
    path: &Path,
    src: &str,
    g: &GameSection,
) -> Result<(Vec<GameKind>, Vec<GameSetup>)> {
    let kinds = g.kind.get_ref().values().to_vec();
    let check_option = |key: &str, span: std::ops::Range<usize>| -> Result<()> {
        if kinds.iter().any(|k| k.option_keys().contains(&key)) {
            Ok(())
        } else {
            let allowed: Vec<String> = kinds
                .iter()
                .map(|k| match k.option_keys() {
                    [] => format!("{}: none", k.name()),
                    keys => format!("{}: {}", k.name(), keys.join(", ")),
                })
                .collect();
            Err(at(
                path,
                src,
                span,
                format!(
                    "[game] {key} does not apply to {}; options by game: {}",
                    kinds
                        .iter()
                        .map(|k| k.name())
                        .collect::<Vec<_>>()
                        .join(", "),
                    allowed.join("; ")
                ),
            ))
        }
    };
    if let Some(sc) = &g.scale {
        check_option("scale", sc.span())?;
    }
    if let Some(m) = &g.misere {
        check_option("misere", m.span())?;
    }
    for (key, span) in [
        ("branching", g.branching.as_ref().map(|x| x.span())),
        ("height", g.height.as_ref().map(|x| x.span())),
        ("values", g.values.as_ref().map(|x| x.span())),
        ("range", g.range.as_ref().map(|x| x.span())),
        ("model", g.model.as_ref().map(|x| x.span())),
        ("trees", g.trees.as_ref().map(|x| x.span())),
    ] {
        if let Some(span) = span {
            check_option(key, span)?;
        }
    }
    if let Some(w) = &g.width {
        check_option("width", w.span())?;
    }
    let mut setups = Vec::new();
    for kind in &kinds {
        match kind {
            GameKind::Tictactoe => {
                let scales = g
                    .scale
                    .as_ref()
                    .map(|s| s.get_ref().values().iter().map(|n| n.0).collect())
                    .unwrap_or_else(|| vec![Scale::WinLoss]);
                setups.extend(
                    scales
                        .into_iter()
                        .map(|scale| GameSetup::TicTacToe { scale }),
                );
            }
            GameKind::Nim => {
                let ms = g
                    .misere
                    .as_ref()
                    .map(|m| m.get_ref().values().to_vec())
                    .unwrap_or_else(|| vec![false]);
                setups.extend(ms.into_iter().map(|misere| GameSetup::Nim { misere }));
            }
            GameKind::Chess => setups.push(GameSetup::Chess),
            GameKind::Uniform => setups.extend(uniform_setups(path, src, g)?),
            GameKind::Connect4 => {
                // The numbers of a key, and where its number `i` is written (the game's kind
                // for a key left out).
                let sizes = |o: &Option<toml::Spanned<IntGrid>>, default: i64| match o {
                    Some(v) => (v.get_ref().values.clone(), Some(v.span())),
                    None => (vec![default], None),
                };
                let (widths, wspan) = sizes(&g.width, 7);
                let (heights, hspan) = sizes(&g.height, 6);
                let number_at = |span: &Option<std::ops::Range<usize>>, i: usize| match span {
                    Some(s) => item_span(src, s.clone(), i),
                    None => g.kind.span(),
                };
                for (wi, &w) in widths.iter().enumerate() {
                    for (hi, &h) in heights.iter().enumerate() {
                        let span = if !(1..=64).contains(&w) || g.height.is_none() {
                            number_at(&wspan, wi)
                        } else {
                            number_at(&hspan, hi)
                        };
                        Connect4::check_size(w, h).map_err(|e| {
                            at(path, src, span, format!("[game] width/height: {e}"))
                        })?;
                        // Checked: both from 1 to 64.
                        let (width, height) = (w as u32, h as u32);
                        setups.push(GameSetup::Connect4 { width, height });
                    }
                }
                // Every size checked: a range too long to list is refused (no size is).
                for (key, grid) in [("width", &g.width), ("height", &g.height)] {
                    if let Some(v) = grid {
                        v.get_ref()
                            .listed()
                            .map_err(|msg| at(path, src, v.span(), format!("`{key}`: {msg}")))?;
                    }
                }
            }
        }
    }
    Ok((kinds, setups))
}

/// `n` moves, in words: "1 move", "5 moves", "no move".
fn moves_text(n: u32) -> String {
    match n {
        0 => "no move".to_string(),
        1 => "1 move".to_string(),
        n => format!("{n} moves"),
    }
}
