//! TEMPORARY stub parser (replaced by the table-driven parser on merge).
use crate::bail;
use crate::config::*;
use crate::error::Result;
use std::path::PathBuf;

pub enum ParsedArgs {
    Link(Box<Config>),
    Exit { stdout: String, code: i32 },
}

pub fn parse_args(argv: &[String]) -> Result<ParsedArgs> {
    let mut c = Config::default();
    let mut st = PositionalState::default();
    let mut i = 0;
    let next = |i: &mut usize| -> Result<String> {
        *i += 1;
        argv.get(*i)
            .cloned()
            .ok_or_else(|| crate::err!("missing arg"))
    };
    while i < argv.len() {
        let a = argv[i].as_str();
        match a {
            "-o" => c.output = PathBuf::from(next(&mut i)?),
            "-static" => {
                c.is_static = true;
                st.link_static = true;
            }
            "-pie" | "--pie" => c.pie = true,
            "-no-pie" => c.pie = false,
            "--eh-frame-hdr" => c.eh_frame_hdr = true,
            "--build-id" => c.build_id = BuildId::Sha1,
            "-m" | "-z" | "-dynamic-linker" | "-plugin" => {
                let v = next(&mut i)?;
                if a == "-z" && v == "norelro" {
                    c.z.relro = false;
                }
            }
            "--start-group"
            | "--end-group"
            | "--as-needed"
            | "--no-as-needed"
            | "--push-state"
            | "--pop-state"
            | "--no-dynamic-linker" => {}
            "-Bstatic" => st.link_static = true,
            "-Bdynamic" => st.link_static = false,
            "--whole-archive" => st.whole_archive = true,
            "--no-whole-archive" => st.whole_archive = false,
            "--time" => c.time = true,
            "--stats" => c.stats = true,
            "--version" => {
                return Ok(ParsedArgs::Exit {
                    stdout: "weld 0.1.0 (compatible with GNU linkers)\n".into(),
                    code: 0,
                })
            }
            _ if a.starts_with("--hash-style")
                || a.starts_with("-plugin-opt")
                || a.starts_with("--build-id=") => {}
            _ if a.starts_with("--threads=") => c.threads = a[10..].parse().ok(),
            _ if a.starts_with("-L") => c.search_paths.push(PathBuf::from(&a[2..])),
            _ if a.starts_with("-l") => c.inputs.push(Input {
                kind: InputKind::Library(a[2..].to_string()),
                state: st,
                group: None,
            }),
            _ if a.starts_with('-') => bail!("unknown argument '{a}'"),
            _ => c.inputs.push(Input {
                kind: InputKind::Path(PathBuf::from(a)),
                state: st,
                group: None,
            }),
        }
        i += 1;
    }
    Ok(ParsedArgs::Link(Box::new(c)))
}
