//! The slurm.conf tokenizer: the one reader of a site's `slurm.conf` text,
//! shared by everything that takes `--slurm-conf FILE` (the machine of
//! nodes and partitions reads `NodeName`, `PartitionName` and `GresTypes`;
//! the Slurm policy reads `SchedulerParameters` and `Priority*`).
//!
//! It follows the file format of `slurm.conf(5)`: `#` starts a comment
//! (`\#` is a literal `#`), a line ending in `\` continues on the next,
//! a line is whitespace-separated `Key=Value` pairs whose keys match
//! without regard to case, a value may be double-quoted to hold spaces,
//! and the first `=` of a pair splits it (so
//! `SchedulerParameters=bf_window=2880` has the value `bf_window=2880`).
//! `Include` lines name other files, which this pure reader cannot open;
//! they are kept in [`SlurmConf::includes`] so a host can say so. Node
//! names are host lists ([`expand_hostlist`]: `n[001-128]`,
//! `gpu[1-2,5],login1`).
//!
//! Which lines a consumer used is its business: [`SlurmConf::lines_except`]
//! gives the lines whose first key is in none of the given families, which
//! is how a host lists the lines it ignored.

use std::fmt;

/// Most host names one host list may expand to (Slurm's own clusters stay
/// well below; a larger list is a typo such as `n[1-10000000]`).
pub const MAX_HOSTS: usize = 1 << 20;

/// One `Key=Value` pair as written, with the key's spelling kept for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfPair {
    /// The key as written (`NodeName`, `nodename`).
    pub key: String,
    /// The value, quotes removed.
    pub value: String,
}

/// A logical line (continuations joined): its pairs, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfLine {
    /// The 1-based number of the line's first physical line.
    pub line: usize,
    /// The pairs in the order written; the first names what the line is.
    pub pairs: Vec<ConfPair>,
}

impl ConfLine {
    /// The first pair's key, which names the line (`NodeName`).
    pub fn key(&self) -> &str {
        &self.pairs[0].key
    }

    /// The first pair's value (`n[1-4]` of `NodeName=n[1-4] CPUs=8`).
    pub fn value(&self) -> &str {
        &self.pairs[0].value
    }

    /// Whether the line's first key is `key`, without regard to case.
    pub fn is(&self, key: &str) -> bool {
        self.key().eq_ignore_ascii_case(key)
    }

    /// The value of the last pair named `key` (without regard to case), as
    /// Slurm lets a later pair override an earlier one.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs.iter().rev().find(|p| p.key.eq_ignore_ascii_case(key)).map(|p| p.value.as_str())
    }
}

/// An `Include` line: a file this reader does not open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfInclude {
    /// Its 1-based line number.
    pub line: usize,
    /// The file it names.
    pub file: String,
}

/// A tokenized slurm.conf.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlurmConf {
    /// Every `Key=Value` line, in file order.
    pub lines: Vec<ConfLine>,
    /// Every `Include` line, in file order.
    pub includes: Vec<ConfInclude>,
}

impl SlurmConf {
    /// The lines whose first key is `key`, without regard to case, in order.
    pub fn lines_named<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a ConfLine> + 'a {
        self.lines.iter().filter(move |l| l.is(key))
    }

    /// The value of the last line `Key=Value` whose key is `key` (a
    /// one-pair setting such as `SchedulerParameters`), with its line.
    pub fn setting(&self, key: &str) -> Option<&ConfLine> {
        self.lines.iter().rev().find(|l| l.is(key))
    }

    /// The lines whose first key is none of `used` (compared without case);
    /// an entry ending in `*` matches every key it prefixes
    /// (`Priority*`). A host joins its readers' lists to say which lines
    /// of a site's file were ignored.
    pub fn lines_except<'a>(&'a self, used: &'a [&'a str]) -> impl Iterator<Item = &'a ConfLine> + 'a {
        self.lines.iter().filter(move |l| !used.iter().any(|u| key_matches(l.key(), u)))
    }
}

/// Whether `key` is `pattern` without regard to case, or starts with it
/// when the pattern ends in `*`.
fn key_matches(key: &str, pattern: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => {
            key.len() >= prefix.len() && key.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
        }
        None => key.eq_ignore_ascii_case(pattern),
    }
}

/// What makes a slurm.conf unreadable, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmConfError {
    /// The 1-based line number (of the logical line's first physical line).
    pub line: usize,
    /// What is wrong, quoting the text.
    pub message: String,
}

impl fmt::Display for SlurmConfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "slurm.conf line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SlurmConfError {}

/// Tokenizes slurm.conf text. A token that is not `Key=Value` (outside an
/// `Include` line), an empty key or an unclosed quote is an error naming
/// its line; nothing is skipped silently.
pub fn parse_slurm_conf(text: &str) -> Result<SlurmConf, SlurmConfError> {
    let mut conf = SlurmConf::default();
    for (line, logical) in logical_lines(text) {
        let tokens = split_tokens(&logical).map_err(|message| SlurmConfError { line, message })?;
        let Some(first) = tokens.first() else { continue };
        if first.eq_ignore_ascii_case("include") && !first.contains('=') {
            let file = tokens[1..].join(" ");
            if file.is_empty() {
                return Err(SlurmConfError { line, message: "`Include` names no file".into() });
            }
            conf.includes.push(ConfInclude { line, file });
            continue;
        }
        let pairs = tokens.into_iter().map(|t| pair(&t)).collect::<Result<Vec<_>, _>>();
        conf.lines.push(ConfLine { line, pairs: pairs.map_err(|message| SlurmConfError { line, message })? });
    }
    Ok(conf)
}

/// Splits a token at its first `=`.
fn pair(token: &str) -> Result<ConfPair, String> {
    match token.split_once('=') {
        Some(("", _)) => Err(format!("`{token}` has no key before `=`")),
        Some((key, value)) => Ok(ConfPair { key: key.to_string(), value: unquote(value) }),
        None => Err(format!("`{token}` is not `Key=Value`")),
    }
}

/// Removes the double quotes of a quoted value (they were kept by
/// [`split_tokens`] so that a quoted space does not split a token).
fn unquote(value: &str) -> String {
    value.replace('"', "")
}

/// The logical lines of `text` with comments removed and continuations
/// joined, each with the number of its first physical line.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let content = strip_comment(raw);
        let (content, continues) = match content.trim_end().strip_suffix('\\') {
            Some(head) => (head.to_string(), true),
            None => (content, false),
        };
        let entry = pending.get_or_insert_with(|| (i + 1, String::new()));
        entry.1.push(' ');
        entry.1.push_str(&content);
        if !continues {
            out.extend(pending.take());
        }
    }
    out.extend(pending);
    out
}

/// The text of a line before its comment; `\#` stands for a literal `#`.
fn strip_comment(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'#') => {
                out.push('#');
                chars.next();
            }
            '#' => break,
            _ => out.push(c),
        }
    }
    out
}

/// Splits a logical line at whitespace outside double quotes.
fn split_tokens(line: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
            }
            _ => current.push(c),
        }
    }
    if quoted {
        return Err(format!("`{current}` opens a quote it does not close"));
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    Ok(tokens)
}

/// Expands a Slurm host list: comma-separated names, each with any number
/// of bracketed ranges (`n[001-128]`, `r[1-2]n[1-4]`, `gpu[1,3,5-6]`),
/// zero padding kept from the lower bound's width. Names come out in the
/// order written, ranges expanded left to right (the first bracket
/// varying slowest), as Slurm's `hostlist` does.
pub fn expand_hostlist(list: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for name in split_top_level(list)? {
        expand_name(name, &mut out)?;
        if out.len() > MAX_HOSTS {
            return Err(format!("host list `{list}` names more than {MAX_HOSTS} hosts"));
        }
    }
    if out.is_empty() {
        return Err("the host list is empty".into());
    }
    Ok(out)
}

/// Splits a host list at the commas outside brackets.
fn split_top_level(list: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in list.char_indices() {
        match c {
            '[' if depth == 0 => depth = 1,
            '[' => return Err(format!("host list `{list}` nests brackets")),
            ']' if depth == 1 => depth = 0,
            ']' => return Err(format!("host list `{list}` closes a bracket it did not open")),
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(format!("host list `{list}` leaves a bracket open"));
    }
    parts.push(&list[start..]);
    if let Some(empty) = parts.iter().position(|p| p.is_empty()) {
        return Err(format!("host list `{list}` has an empty name (item {})", empty + 1));
    }
    Ok(parts)
}

/// Appends the hosts one name with brackets stands for.
fn expand_name(name: &str, out: &mut Vec<String>) -> Result<(), String> {
    let Some(open) = name.find('[') else {
        out.push(name.to_string());
        return Ok(());
    };
    let close = open + name[open..].find(']').ok_or_else(|| format!("`{name}` leaves a bracket open"))?;
    let (prefix, ranges, rest) = (&name[..open], &name[open + 1..close], &name[close + 1..]);
    let mut tails = Vec::new();
    expand_name(rest, &mut tails)?;
    for item in ranges.split(',') {
        for number in range_items(item, name)? {
            if out.len() + tails.len() > MAX_HOSTS {
                return Err(format!("`{name}` names more than {MAX_HOSTS} hosts"));
            }
            out.extend(tails.iter().map(|t| format!("{prefix}{number}{t}")));
        }
    }
    Ok(())
}

/// The numbers of one bracket item (`7` or `001-128`), padded to the
/// lower bound's width.
fn range_items(item: &str, name: &str) -> Result<Vec<String>, String> {
    let (lo, hi) = item.split_once('-').unwrap_or((item, item));
    let parse = |s: &str| {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{name}`: `{item}` is not a number or a range `lo-hi`"));
        }
        s.parse::<u64>().map_err(|_| format!("`{name}`: `{s}` is too large"))
    };
    let (a, b) = (parse(lo)?, parse(hi)?);
    if a > b {
        return Err(format!("`{name}`: the range `{item}` runs backwards"));
    }
    if b - a >= MAX_HOSTS as u64 {
        return Err(format!("`{name}`: the range `{item}` names more than {MAX_HOSTS} hosts"));
    }
    let width = lo.len();
    Ok((a..=b).map(|n| format!("{n:0width$}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_comments_quotes_and_continuations() {
        let text =
            "# site config\nClusterName=lab  # trailing\nNodeName=n[1-2] CPUs=64 \\\n  RealMemory=256000 Gres=gpu:4\n\
                    PartitionName=batch Nodes=n[1-2] Default=YES MaxTime=\"1-00:00:00\"\n\
                    SchedulerParameters=bf_window=2880,bf_interval=30\nFeature=\"a b\" Note=x\\#y\n";
        let conf = parse_slurm_conf(text).unwrap();
        let keys: Vec<(usize, &str)> = conf.lines.iter().map(|l| (l.line, l.key())).collect();
        assert_eq!(
            keys,
            [(2, "ClusterName"), (3, "NodeName"), (5, "PartitionName"), (6, "SchedulerParameters"), (7, "Feature")]
        );
        let node = &conf.lines[1];
        assert_eq!(node.get("realmemory"), Some("256000"));
        assert_eq!(node.get("GRES"), Some("gpu:4"));
        assert_eq!(conf.setting("schedulerparameters").unwrap().value(), "bf_window=2880,bf_interval=30");
        assert_eq!(conf.lines[2].get("MaxTime"), Some("1-00:00:00"));
        assert_eq!(conf.lines[4].value(), "a b");
        assert_eq!(conf.lines[4].get("note"), Some("x#y"));
    }

    #[test]
    fn a_later_pair_overrides_an_earlier_one() {
        let conf = parse_slurm_conf("NodeName=a CPUs=4 cpus=8").unwrap();
        assert_eq!(conf.lines[0].get("CPUs"), Some("8"));
    }

    #[test]
    fn ignored_lines_are_listed_by_family() {
        let conf = parse_slurm_conf("NodeName=a\nPriorityWeightAge=10\nPriorityType=priority/multifactor\nSlurmctldHost=h\nInclude extra.conf\n").unwrap();
        let ignored: Vec<&str> = conf.lines_except(&["nodename", "Priority*"]).map(|l| l.key()).collect();
        assert_eq!(ignored, ["SlurmctldHost"]);
        assert_eq!(conf.includes, [ConfInclude { line: 5, file: "extra.conf".into() }]);
    }

    #[test]
    fn bad_tokens_name_their_line() {
        let e = parse_slurm_conf("NodeName=a\n\nCPUs 4\n").unwrap_err();
        assert_eq!(e.to_string(), "slurm.conf line 3: `CPUs` is not `Key=Value`");
        assert_eq!(parse_slurm_conf("=4").unwrap_err().message, "`=4` has no key before `=`");
        assert_eq!(parse_slurm_conf("A=\"b c").unwrap_err().line, 1);
        assert_eq!(parse_slurm_conf("Include").unwrap_err().message, "`Include` names no file");
    }

    #[test]
    fn host_lists_expand_in_order_with_padding() {
        assert_eq!(expand_hostlist("n[001-003]").unwrap(), ["n001", "n002", "n003"]);
        assert_eq!(expand_hostlist("gpu[1,3-4],login").unwrap(), ["gpu1", "gpu3", "gpu4", "login"]);
        assert_eq!(expand_hostlist("r[1-2]n[8-9]").unwrap(), ["r1n8", "r1n9", "r2n8", "r2n9"]);
        assert_eq!(expand_hostlist("a[9-10]x").unwrap(), ["a9x", "a10x"]);
    }

    #[test]
    fn bad_host_lists_say_what_is_wrong() {
        for (list, message) in [
            ("n[3-1]", "`n[3-1]`: the range `3-1` runs backwards"),
            ("n[1-2", "host list `n[1-2` leaves a bracket open"),
            ("n[a]", "`n[a]`: `a` is not a number or a range `lo-hi`"),
            ("a,,b", "host list `a,,b` has an empty name (item 2)"),
            ("n[[1]]", "host list `n[[1]]` nests brackets"),
            ("", "host list `` has an empty name (item 1)"),
            ("n[0-99999999]", "`n[0-99999999]`: the range `0-99999999` names more than 1048576 hosts"),
            ("a[0-2000]b[0-2000]", "`a[0-2000]b[0-2000]` names more than 1048576 hosts"),
        ] {
            assert_eq!(expand_hostlist(list).unwrap_err(), message, "{list}");
        }
    }
}
