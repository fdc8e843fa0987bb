//! Standard output that does not panic when the reader goes away. `println!` panics on a
//! closed pipe (`tumble run ... | head`); these macros end the process instead: quietly
//! (status 0) on a broken pipe, as a command killed by SIGPIPE would be to a shell pipeline's
//! reader, and with a message on stderr (status 1) on any other write error.
use std::io::{ErrorKind, Write};

/// Write `args` to stdout (see the module notes for what happens when that fails).
pub fn write(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("tumble: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// `print!` through [`write`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write(format_args!($($arg)*)) };
}

/// `println!` through [`write`].
macro_rules! outln {
    ($($arg:tt)*) => { $crate::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {out, outln};
