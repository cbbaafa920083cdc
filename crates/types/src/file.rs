//! Files a user names (a network, a book, training records, a checkpoint):
//! only regular files are opened, and a file longer than its format allows
//! is refused before it is read. A device (`/dev/zero`, `/dev/urandom`), a
//! FIFO (whose `open` would wait for a writer for ever), a directory or a
//! socket is refused at once, its kind named; errors name what is wrong,
//! never what the file holds. Callers add the path to the message.

use std::fs::{File, FileType};
use std::io::{self, Read};
use std::path::Path;

/// What a file that is not a regular file is, in words.
fn kind(file_type: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Checks that `path` names a regular file (following links) of at most
/// `max_len` bytes, without opening it; gives its length.
pub fn check_regular(path: &Path, max_len: Option<u64>) -> io::Result<u64> {
    let meta = std::fs::metadata(path)?;
    let file_type = meta.file_type();
    if !file_type.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", kind(file_type)),
        ));
    }
    match max_len {
        Some(max) if meta.len() > max => Err(too_long(meta.len(), max)),
        _ => Ok(meta.len()),
    }
}

fn too_long(len: u64, max: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("it is {len} bytes long, more than the {max} its format allows"),
    )
}

/// Opens `path` for reading as a stream: a regular file or a FIFO (a
/// pipe, as `<(zcat games.pgn.gz)` names one), which a reader may follow
/// to its end. A device (`/dev/zero` never ends), a directory or a socket
/// is refused at once, its kind named.
pub fn open_stream(path: &Path) -> io::Result<File> {
    let refuse = |file_type: FileType| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a file or a pipe", kind(file_type)),
        )
    };
    let stream = |file_type: FileType| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return true;
            }
        }
        file_type.is_file()
    };
    let file_type = std::fs::metadata(path)?.file_type();
    if !stream(file_type) {
        return Err(refuse(file_type));
    }
    let file = File::open(path)?;
    // The path may have changed between the check and the open.
    let file_type = file.metadata()?.file_type();
    if !stream(file_type) {
        return Err(refuse(file_type));
    }
    Ok(file)
}

/// Opens `path` for reading when it is a regular file of at most `max_len`
/// bytes (see [`check_regular`]).
pub fn open_regular(path: &Path, max_len: Option<u64>) -> io::Result<File> {
    check_regular(path, max_len)?;
    let file = File::open(path)?;
    // The path may have changed between the check and the open.
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is not a regular file",
        ));
    }
    Ok(file)
}

/// Reads the whole of `path` when it is a regular file of at most
/// `max_len` bytes; never more than `max_len` bytes, even from a file that
/// grows while it is read.
pub fn read_regular(path: &Path, max_len: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path, Some(max_len))?;
    let mut bytes = Vec::new();
    file.take(max_len.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_len {
        return Err(too_long(bytes.len() as u64, max_len));
    }
    Ok(bytes)
}

/// [`read_regular`] as text (UTF-8).
pub fn read_regular_text(path: &Path, max_len: u64) -> io::Result<String> {
    String::from_utf8(read_regular(path, max_len)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn devices_and_directories_are_refused_at_once() {
        for (path, what) in [
            ("/dev/zero", "a character device"),
            ("/dev/null", "a character device"),
            ("/", "a directory"),
        ] {
            let e = read_regular(Path::new(path), 1 << 20).expect_err(path);
            assert!(e.to_string().contains(what), "{path}: {e}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let path = std::env::temp_dir().join(format!("kestrel-types-fifo-{}", std::process::id()));
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("mkfifo is missing: skipped");
            return;
        }
        let e = read_regular(&path, 1 << 20).expect_err("a FIFO");
        assert!(e.to_string().contains("a FIFO (named pipe)"), "{e}");
        let e = open_regular(&path, None).expect_err("a FIFO");
        assert!(e.to_string().contains("a FIFO (named pipe)"), "{e}");
        std::fs::remove_file(&path).ok();
    }

    #[cfg(unix)]
    #[test]
    fn a_stream_is_a_file_or_a_pipe_never_a_device_or_a_directory() {
        for (path, what) in [
            ("/dev/zero", "a character device"),
            ("/dev/urandom", "a character device"),
            ("/", "a directory"),
        ] {
            let e = open_stream(Path::new(path)).expect_err(path);
            assert!(e.to_string().contains(what), "{path}: {e}");
        }
        let path =
            std::env::temp_dir().join(format!("kestrel-types-stream-{}", std::process::id()));
        std::fs::write(&path, b"1. e4 *").expect("temporary file");
        let mut text = String::new();
        open_stream(&path)
            .expect("a regular file")
            .read_to_string(&mut text)
            .expect("read");
        assert_eq!(text, "1. e4 *");
        std::fs::remove_file(&path).ok();
        // A FIFO is opened (for reading, the open waits for a writer).
        let fifo = std::env::temp_dir().join(format!("kestrel-types-sfifo-{}", std::process::id()));
        if !std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            eprintln!("mkfifo is missing: skipped");
            return;
        }
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(&fifo, b"1. d4 *"))
        };
        let mut text = String::new();
        open_stream(&fifo)
            .expect("a FIFO")
            .read_to_string(&mut text)
            .expect("read");
        writer.join().expect("writer").expect("written");
        assert_eq!(text, "1. d4 *");
        std::fs::remove_file(&fifo).ok();
    }

    #[test]
    fn a_file_longer_than_its_bound_is_refused_unread() {
        let path = std::env::temp_dir().join(format!("kestrel-types-file-{}", std::process::id()));
        std::fs::write(&path, b"0123456789").expect("temporary file");
        assert_eq!(read_regular(&path, 10).expect("fits"), b"0123456789");
        let e = read_regular(&path, 9).expect_err("too long");
        assert!(
            e.to_string().contains("10 bytes long, more than the 9"),
            "{e}"
        );
        assert!(!e.to_string().contains("0123"), "never the content: {e}");
        std::fs::remove_file(&path).ok();
    }
}
