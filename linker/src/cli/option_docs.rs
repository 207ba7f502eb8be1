//! The option table as people read it: the option list `--help` prints and `docs/options.md`.
//! Both are rendered from `options::OPTIONS`, so they cannot drift from what the linker accepts;
//! a test fails when the checked-in `docs/options.md` is out of date.

use crate::cli::options::{ArgForm, OptionDef, Status, OPTIONS};

/// How the argument is shown in help and documentation.
fn arg_display(name: &str, form: ArgForm) -> String {
    let short = !name.starts_with("--");
    match form {
        ArgForm::Flag => name.to_string(),
        ArgForm::Value if short => format!("{name} <value>"),
        ArgForm::Value => format!("{name}=<value>"),
        ArgForm::Separate => format!("{name} <value>"),
        ArgForm::Joined => format!("{name}<value>"),
        ArgForm::OptionalValue => format!("{name}[=<value>]"),
        ArgForm::ZKeyword if name.ends_with('=') => format!("{name}<value>"),
        ArgForm::ZKeyword => name.to_string(),
    }
}

fn status_text(status: Status) -> &'static str {
    match status {
        Status::Implemented => "implemented",
        Status::IgnoredTuningOnly => "accepted, ignored",
        Status::NotYet => "not yet",
    }
}

fn form_text(def: &OptionDef) -> &'static str {
    match def.arg {
        ArgForm::Flag => "none",
        ArgForm::Value => "required",
        ArgForm::Separate => "required, next argument only",
        ArgForm::Joined => "joined",
        ArgForm::OptionalValue => "optional, after `=`",
        ArgForm::ZKeyword if def.name().ends_with('=') => "joined",
        ArgForm::ZKeyword => "none",
    }
}

/// The option list printed by `--help`, one option per line.
pub fn render_help_options() -> String {
    let mut out = String::new();
    for def in OPTIONS {
        let names: Vec<String> = def.names.iter().map(|n| arg_display(n, def.arg)).collect();
        let names = names.join(", ");
        let note = match def.status {
            Status::Implemented => "",
            Status::IgnoredTuningOnly => " [accepted, ignored]",
            Status::NotYet => " [not implemented yet]",
        };
        if names.len() <= 30 {
            out.push_str(&format!("  {names:<30} {}{note}\n", def.help));
        } else {
            out.push_str(&format!("  {names}\n  {:<30} {}{note}\n", "", def.help));
        }
    }
    out
}

/// `docs/options.md`, rendered from the table (a test keeps the checked-in file in sync).
pub fn render_markdown() -> String {
    let mut out = String::from(
        "# weld command-line options\n\n\
         Generated from `linker/src/cli/options.rs` by `cargo test -p weld options_doc` with\n\
         `WELD_BLESS=1`; do not edit by hand.\n\n\
         Long options take one or two dashes (`-soname`, `--soname`) except those starting\n\
         with `o`; a long option's value follows `=` or comes as the next argument; a\n\
         one-letter option's value is joined or the next argument (`-L DIR`, `-LDIR`).\n\
         `-z` keywords come as `-z KEYWORD` or `-zKEYWORD`.\n\n\
         Status: **implemented** (honoured), **accepted, ignored** (cannot change the output),\n\
         **not yet** (an error: `option X is not implemented yet`).\n\n\
         | Option | Aliases | Argument | lld meaning | weld |\n\
         |---|---|---|---|---|\n",
    );
    let esc = |s: &str| {
        s.replace('|', "\\|")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    for def in OPTIONS {
        let shown: Vec<String> = def
            .names
            .iter()
            .map(|n| format!("`{}`", arg_display(n, def.arg)))
            .collect();
        // The weld column adds weld's own help where it says more than lld's meaning.
        let weld = if def.status != Status::NotYet && def.help != def.lld_meaning() {
            format!("{}: {}", status_text(def.status), esc(def.help))
        } else {
            status_text(def.status).to_string()
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            shown[0],
            shown[1..].join(", "),
            form_text(def),
            esc(def.lld_meaning()),
            weld
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_doc_is_up_to_date() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/options.md");
        let want = render_markdown();
        if std::env::var_os("WELD_BLESS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &want).unwrap();
            return;
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "docs/options.md is out of date: run `WELD_BLESS=1 cargo test -p weld options_doc`"
        );
    }
}
