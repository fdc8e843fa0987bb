//! The command line's grammar, by clap (derive): commands, options with their units and
//! defaults, `--help` for each, `--version`, suggestions for mistyped names, shell completions
//! (clap_complete) and the man page (clap_mangen). The values stay text here: the commands read
//! them with their own messages (`Opts`), which name the option and the allowed range.
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Run the Tumble scenarios natively and print numbers for papers.
#[derive(Parser, Debug)]
#[command(
    name = "tumble",
    version,
    about = "Structure-preserving multibody dynamics: run scenarios with the director, RATTLE and Baumgarte integrators and print their invariants",
    after_help = "SCENARIO is a preset ('tumble scenarios' lists them), a scenario text such as 'chain?links=64&joint=spherical' (quote it in the shell), the path of a JSON scenario file (docs/scenarios.md), or a page's share link (quoted; its integrator, dt, tol, alpha, beta are the defaults) or its system= value.\n\nExit status: 0 on success; 1 for a user error (its message on stderr) and for a run or study that stopped on a failed step (the samples up to there are written, with an \"error\" field)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the presets and their parameters (with units and defaults)
    Scenarios,
    /// Run one scenario with one integrator and print its samples (JSON, NDJSON or CSV)
    Run(RunArgs),
    /// Time per step of scenarios and integrators (median of repeats)
    Bench(BenchArgs),
    /// Convergence study: order, reference error, invariants and long-time behaviour
    Study(StudyArgs),
    /// Print a shell completion script (bash, zsh or fish) to stdout
    Completions {
        /// the shell
        #[arg(value_enum)]
        shell: Shell,
    },
    /// Print the man page (roff) to stdout: `tumble man > tumble.1`
    Man,
}

/// Shells for `tumble completions`.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum Shell {
    /// bash: `tumble completions bash > ~/.local/share/bash-completion/completions/tumble`
    Bash,
    /// zsh: `tumble completions zsh > ~/.zfunc/_tumble` (with ~/.zfunc in fpath)
    Zsh,
    /// fish: `tumble completions fish > ~/.config/fish/completions/tumble.fish`
    Fish,
}

/// The solver settings of `run` and `study` (values checked by the command, with the range in
/// the message).
#[derive(Args, Debug, Default, Clone)]
pub struct SettingArgs {
    /// Newton tolerance on the residual max-norm, 1e-14 to 1e-3 [default: 1e-12]
    #[arg(long, value_name = "EPS")]
    pub tol: Option<String>,
    /// Newton iteration limit per step, 1 to 200 [default: 30]
    #[arg(long, value_name = "N")]
    pub max_iter: Option<String>,
    /// Baumgarte velocity gain alpha in 1/s, 0 to 1e4 [default: 10]
    #[arg(long, value_name = "A")]
    pub alpha: Option<String>,
    /// Baumgarte position gain beta in 1/s, 0 to 1e4 [default: 10]
    #[arg(long, value_name = "B")]
    pub beta: Option<String>,
}

/// Output formats of `tumble run`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunFormat {
    /// one JSON document at the end
    Json,
    /// one JSON record per line as each sample is computed: a header, the samples, the end
    Ndjson,
    /// one row per sample
    Csv,
    /// the run's study record (as `tumble study` writes for each run)
    Study,
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct RunArgs {
    /// the scenario: a preset, a scenario text, a JSON file or a share link
    pub scenario: String,
    /// director, rattle or baumgarte [default: director]
    #[arg(long, value_name = "NAME")]
    pub integrator: Option<String>,
    /// time step h in s (default: the scenario's step that suits the integrator)
    #[arg(long, value_name = "H")]
    pub dt: Option<String>,
    #[command(flatten)]
    pub settings: SettingArgs,
    /// simulated time in s [default: the scenario's duration]
    #[arg(long, value_name = "T")]
    pub duration: Option<String>,
    /// sampling interval in s [default: every step]
    #[arg(long, value_name = "S")]
    pub every: Option<String>,
    /// a control's schedule: NAME=V, or NAME=T:V,T:V,... (V from time T on; NAME its name or
    /// index), repeated per control
    #[arg(long, value_name = "NAME=T:V,..")]
    pub control: Vec<String>,
    /// output format
    #[arg(long, value_enum, default_value_t = RunFormat::Json)]
    pub format: RunFormat,
    /// no progress bar on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct BenchArgs {
    /// comma-separated scenarios [default: nk-revolute,nk-spherical and chains of 16 to 1024 links]
    #[arg(long, value_name = "A,B,..")]
    pub scenarios: Option<String>,
    /// comma-separated integrators [default: director,rattle,baumgarte]
    #[arg(long, value_name = "X,Y,..")]
    pub integrators: Option<String>,
    /// steps per repeat [default: 200]
    #[arg(long, value_name = "N")]
    pub steps: Option<String>,
    /// repeats (the median is printed) [default: 5]
    #[arg(long, value_name = "R")]
    pub repeats: Option<String>,
    /// time step h in s [default: the scenario's step that suits the integrator]
    #[arg(long, value_name = "H")]
    pub dt: Option<String>,
    /// Newton tolerance [default: 1e-12]
    #[arg(long, value_name = "EPS")]
    pub tol: Option<String>,
    /// output: a table for people, or JSON lines for scripts (one object a row, its fields
    /// named: scenario, integrator, bodies, us_per_step, us_per_body, its_per_step,
    /// max_rel_balance, or error)
    #[arg(long, value_enum, default_value_t = BenchFormat::Table)]
    pub format: BenchFormat,
}

/// How `tumble bench` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchFormat {
    /// aligned columns
    Table,
    /// one JSON object a line (stable field names)
    Json,
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct StudyArgs {
    /// the scenario (not with --collect)
    pub scenario: Option<String>,
    /// comma-separated integrators [default: director,rattle,baumgarte]
    #[arg(long, value_name = "X,Y,..")]
    pub integrators: Option<String>,
    /// the largest step H0 in s of the convergence levels H0 / 2^k [default: the scenario's]
    #[arg(long, value_name = "H0")]
    pub dt: Option<String>,
    /// number of step levels [default: 5]
    #[arg(long, value_name = "K")]
    pub levels: Option<String>,
    /// simulated time of the convergence runs in s [default: the scenario's, at most 10 s]
    #[arg(long, value_name = "T")]
    pub duration: Option<String>,
    /// simulated time of the long runs in s [default: 10 T]
    #[arg(long, value_name = "T_LONG")]
    pub long: Option<String>,
    /// parallel runs [default: the cores]
    #[arg(long, value_name = "N")]
    pub jobs: Option<String>,
    /// json or csv [default: json]
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// a JSON file with the reference poses at t = T (instead of the computed reference)
    #[arg(long, value_name = "FILE")]
    pub reference: Option<String>,
    /// write the runs' commands into DIR (one file per run) instead of running them
    #[arg(long, value_name = "DIR")]
    pub plan: Option<String>,
    /// read the runs written by a --plan from DIR and print the report
    #[arg(long, value_name = "DIR")]
    pub collect: Option<String>,
    #[command(flatten)]
    pub settings: SettingArgs,
    /// no progress bar or progress lines on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--key value` pairs of the given options that were set, in the order given.
pub fn pairs(list: &[(&str, &Option<String>)]) -> Vec<(String, String)> {
    list.iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k.to_string(), v.clone())))
        .collect()
}

impl SettingArgs {
    /// The settings as `--key value` pairs.
    pub fn pairs(&self) -> Vec<(String, String)> {
        pairs(&[
            ("tol", &self.tol),
            ("max-iter", &self.max_iter),
            ("alpha", &self.alpha),
            ("beta", &self.beta),
        ])
    }
}

impl StudyArgs {
    /// The arguments as the study reads and saves them (`study.rs`: a plan's study-args.txt).
    pub fn to_args(&self) -> Vec<String> {
        let mut out: Vec<String> = self.scenario.iter().cloned().collect();
        for (k, v) in pairs(&[
            ("integrators", &self.integrators),
            ("dt", &self.dt),
            ("levels", &self.levels),
            ("duration", &self.duration),
            ("long", &self.long),
            ("jobs", &self.jobs),
            ("format", &self.format),
            ("reference", &self.reference),
            ("plan", &self.plan),
            ("collect", &self.collect),
        ])
        .into_iter()
        .chain(self.settings.pairs())
        {
            out.push(format!("--{k}"));
            out.push(v);
        }
        out
    }
}
