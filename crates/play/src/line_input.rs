//! Where the terminal game's lines come from: a terminal, with line
//! editing and history (rustyline: arrows, Ctrl-R, Home/End), or any
//! reader (a pipe, a script, a test), line by line.

use std::io::{self, BufRead, Write};

/// A source of input lines.
pub trait LineSource {
    /// The next line, after showing `prompt` where the source shows one;
    /// `None` at the end of input.
    fn read_line(&mut self, prompt: &str) -> io::Result<Option<String>>;
}

/// Lines from a reader. The prompt is printed only when asked (a reader
/// that is not a terminal gets its lines echoed by the session instead).
pub struct Reader<R: BufRead> {
    reader: R,
    show_prompt: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads `reader`; prints prompts on standard output if `show_prompt`.
    pub fn new(reader: R, show_prompt: bool) -> Reader<R> {
        Reader {
            reader,
            show_prompt,
        }
    }
}

impl<R: BufRead> LineSource for Reader<R> {
    fn read_line(&mut self, prompt: &str) -> io::Result<Option<String>> {
        if self.show_prompt {
            let mut out = io::stdout();
            write!(out, "{prompt}")?;
            out.flush()?;
        }
        let mut bytes = Vec::new();
        if self.reader.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        // The session tells the person and reads on: InvalidData is not fatal.
        let line = String::from_utf8(bytes)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8"))?;
        Ok(Some(line.trim_end_matches(['\n', '\r']).to_string()))
    }
}

/// A terminal with line editing and this session's history.
pub struct Terminal {
    editor: rustyline::DefaultEditor,
}

impl Terminal {
    /// The terminal on standard input and output.
    pub fn new() -> io::Result<Terminal> {
        let editor = rustyline::DefaultEditor::new().map_err(io::Error::other)?;
        Ok(Terminal { editor })
    }
}

impl LineSource for Terminal {
    fn read_line(&mut self, prompt: &str) -> io::Result<Option<String>> {
        use rustyline::error::ReadlineError;
        match self.editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    // A history that cannot grow is no reason to stop the game.
                    let _ = self.editor.add_history_entry(line.as_str());
                }
                Ok(Some(line))
            }
            // Ctrl-C clears the line, as in a shell; Ctrl-D ends the input.
            Err(ReadlineError::Interrupted) => Ok(Some(String::new())),
            Err(ReadlineError::Eof) => Ok(None),
            Err(ReadlineError::Io(e)) => Err(e),
            Err(e) => Err(io::Error::other(e)),
        }
    }
}
