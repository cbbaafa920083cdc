//! Every option a UCI or xboard session offers, in one list (the engine's,
//! the book's, the tables' and `UCI_Chess960`), and how each protocol
//! writes one. Values are checked by the options' own parser
//! ([`engine::EngineOption::parse`]).

use engine::{Engine, EngineOption, OptionKind};

use crate::book_options;
use crate::tablebases::Tablebases;

/// `UCI_Chess960`, which the protocol session keeps (move notation).
pub fn chess960_option() -> EngineOption {
    EngineOption {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
        help: "Chess960 (Fischer random): castling written as king takes rook.",
    }
}

/// The session's options: the engine's, then the book's, the tables' and
/// `UCI_Chess960`.
pub fn session_options() -> Vec<EngineOption> {
    let mut list = Engine::options();
    list.extend(book_options::options());
    list.extend(Tablebases::options());
    list.push(chess960_option());
    list
}

/// The UCI `option` line of `option`.
pub fn uci_line(option: &EngineOption) -> String {
    let name = option.name;
    match option.kind {
        OptionKind::Check { default } => format!("option name {name} type check default {default}"),
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Button => format!("option name {name} type button"),
        OptionKind::Combo { default, choices } => {
            let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionKind::Text { default } => format!("option name {name} type string default {default}"),
    }
}

/// The xboard `feature option="..."` text of `option` (without the
/// quotes): the default combo choice starred, checks as 0 or 1.
pub fn xboard_feature(option: &EngineOption) -> String {
    let name = option.name;
    match option.kind {
        OptionKind::Check { default } => format!("{name} -check {}", u8::from(default)),
        OptionKind::Spin { default, min, max } => format!("{name} -spin {default} {min} {max}"),
        OptionKind::Button => format!("{name} -button"),
        OptionKind::Combo { default, choices } => {
            let list: Vec<String> = choices
                .iter()
                .map(|c| {
                    if *c == default {
                        format!("*{c}")
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            format!("{name} -combo {}", list.join(" /// "))
        }
        OptionKind::Text { default } => format!("{name} -file {default}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_declared_once_with_help() {
        let list = session_options();
        for (i, o) in list.iter().enumerate() {
            assert!(!o.help.is_empty(), "{} has no help", o.name);
            assert!(
                !list[..i]
                    .iter()
                    .any(|p| p.name.eq_ignore_ascii_case(o.name)),
                "{} twice",
                o.name
            );
            // Every default passes the option's own parser.
            if let Some(default) = o.default_text() {
                assert!(o.parse(&default).is_ok(), "{}", o.name);
            }
        }
    }

    #[test]
    fn each_protocol_writes_each_kind() {
        let list = session_options();
        let find = |name| engine::find_option(&list, name).unwrap();
        assert_eq!(
            uci_line(find("Hash")),
            "option name Hash type spin default 16 min 1 max 33554432".replace(
                "33554432",
                &match find("Hash").kind {
                    OptionKind::Spin { max, .. } => max.to_string(),
                    _ => unreachable!(),
                }
            )
        );
        assert_eq!(
            uci_line(find("BookPolicy")),
            "option name BookPolicy type combo default weighted var best var weighted var uniform var worst"
        );
        assert_eq!(
            xboard_feature(find("BookPolicy")),
            "BookPolicy -combo best /// *weighted /// uniform /// worst"
        );
        assert_eq!(
            uci_line(find("Clear Hash")),
            "option name Clear Hash type button"
        );
        assert_eq!(
            uci_line(find("UCI_Chess960")),
            "option name UCI_Chess960 type check default false"
        );
        assert_eq!(
            xboard_feature(find("BookFile")),
            "BookFile -file <embedded>"
        );
    }
}
