//! Fair-share as Slurm's priority/multifactor computes it: an association
//! tree (root, accounts, users in accounts) with shares, usage charged by
//! running jobs and decayed with `PriorityDecayHalfLife`, and the factor
//! of each user as Fair Tree (the default) or the classic formula
//! (`PriorityFlags=NO_FAIR_TREE`) gives it.
//!
//! Accounts are the trace's groups and users its users (a user of two
//! groups has two associations, as in Slurm), beside the association of
//! the user root directly under the root, which `sacctmgr add cluster`
//! makes on every cluster and which counts among the users. Shares come from the
//! `Shares` parameter or are 1 for every association, `sacctmgr`'s
//! default. Usage is an `f64` where Slurm keeps a `long double`: the
//! arithmetic is IEEE-exact and the same on every platform, and differs
//! from Slurm's only in the last bits. `pow` is `libm`'s, so native and
//! WebAssembly runs agree bit for bit.

use std::collections::BTreeMap;

/// Index of an association: 0 is the root, then the accounts, then the users.
pub(crate) type Assoc = u32;

/// The `Shares` parameter read: shares by (account, user), `None` for an
/// account's own line.
pub(crate) type Shares = BTreeMap<(i32, Option<i32>), u32>;

const ROOT: Assoc = 0;

pub(crate) struct Tree {
    parent: Vec<Assoc>,
    children: Vec<Vec<Assoc>>,
    shares: Vec<u32>,
    /// The sum of the shares of an association and its siblings
    /// (`usage->level_shares`).
    level_shares: Vec<u64>,
    is_user: Vec<bool>,
    /// `usage_raw`: decayed processor-seconds, summed up to the root.
    usage: Vec<f64>,
    /// Fair Tree's factor per user association (`usage->fs_factor`).
    fs_factor: Vec<f64>,
    /// The classic formula's effective usage (`usage_efctv`); `None`
    /// where Slurm has `NO_VAL`, to be computed when a job asks.
    efctv: Vec<Option<f64>>,
    users: u32,
    /// (group, user) → user association.
    user_of: BTreeMap<(i32, i32), Assoc>,
}

impl Tree {
    /// The tree of every (group, user) pair in `pairs`, with shares from
    /// `shares` (account → shares, (account, user) → shares; 1 otherwise).
    pub(crate) fn new(pairs: impl Iterator<Item = (i32, i32)>, shares: &BTreeMap<(i32, Option<i32>), u32>) -> Self {
        let pairs: std::collections::BTreeSet<(i32, i32)> = pairs.collect();
        let accounts: std::collections::BTreeSet<i32> = pairs.iter().map(|p| p.0).collect();
        let mut t = Tree {
            parent: vec![ROOT],
            children: vec![Vec::new()],
            shares: vec![1],
            level_shares: vec![1],
            is_user: vec![false],
            usage: Vec::new(),
            fs_factor: Vec::new(),
            efctv: Vec::new(),
            users: pairs.len() as u32 + 1,
            user_of: BTreeMap::new(),
        };
        // The user root, one share, under the root: it runs nothing here.
        t.push(ROOT, 1, true);
        let mut account_of = BTreeMap::new();
        for &a in &accounts {
            let id = t.push(ROOT, shares.get(&(a, None)).copied().unwrap_or(1), false);
            account_of.insert(a, id);
        }
        for &(a, u) in &pairs {
            let id = t.push(account_of[&a], shares.get(&(a, Some(u))).copied().unwrap_or(1), true);
            t.user_of.insert((a, u), id);
        }
        for id in 0..t.parent.len() {
            let p = t.parent[id] as usize;
            t.level_shares[id] =
                if id == 0 { 1 } else { t.children[p].iter().map(|&c| u64::from(t.shares[c as usize])).sum() };
        }
        let n = t.parent.len();
        t.usage = vec![0.0; n];
        // Before the first computation every user ranks first (all usage is zero).
        t.fs_factor = vec![1.0; n];
        t.efctv = vec![None; n];
        t
    }

    fn push(&mut self, parent: Assoc, shares: u32, user: bool) -> Assoc {
        let id = self.parent.len() as Assoc;
        self.parent.push(parent);
        self.children.push(Vec::new());
        self.children[parent as usize].push(id);
        self.shares.push(shares);
        self.level_shares.push(0);
        self.is_user.push(user);
        id
    }

    pub(crate) fn user(&self, group: i32, user: i32) -> Assoc {
        self.user_of.get(&(group, user)).copied().unwrap_or(ROOT)
    }

    /// Multiplies every association's usage by `factor` (`_apply_decay`).
    pub(crate) fn decay(&mut self, factor: f64) {
        for u in &mut self.usage {
            *u *= factor;
        }
    }

    /// Every association's usage, in association order.
    pub(crate) fn usage(&self) -> &[f64] {
        &self.usage
    }

    /// Zeroes every usage (`_reset_usage`, at `PriorityUsageResetPeriod`).
    pub(crate) fn reset(&mut self) {
        self.usage.iter_mut().for_each(|u| *u = 0.0);
    }

    /// Charges `amount` to an association and every one above it up to
    /// the root (`_apply_new_usage`).
    pub(crate) fn charge(&mut self, mut assoc: Assoc, amount: f64) {
        loop {
            self.usage[assoc as usize] += amount;
            if assoc == ROOT {
                break;
            }
            assoc = self.parent[assoc as usize];
        }
    }

    /// `usage_norm`: usage over the root's, capped at 1 (`set_assoc_usage_norm`).
    fn usage_norm(&self, a: Assoc) -> f64 {
        let root = self.usage[ROOT as usize];
        if root == 0.0 {
            return 0.0;
        }
        (self.usage[a as usize] / root).min(1.0)
    }

    /// Shares over the sum of the siblings' (Fair Tree's `shares_norm`,
    /// `_normalize_assoc_shares_fair_tree`).
    fn level_share(&self, a: Assoc) -> f64 {
        let level = self.level_shares[a as usize];
        if level == 0 {
            0.0
        } else {
            f64::from(self.shares[a as usize]) / level as f64
        }
    }

    /// The classic `shares_norm`: the product of the level shares on the
    /// path from the root (`_normalize_assoc_shares_traditional`).
    fn shares_norm_classic(&self, mut a: Assoc) -> f64 {
        let mut norm = 1.0;
        while a != ROOT {
            norm *= self.level_share(a);
            a = self.parent[a as usize];
        }
        norm
    }

    /// The top of a decay instant under the classic formula
    /// (`_set_children_usage_efctv`): accounts get their effective usage
    /// from the usage as it stands, users are cleared to be computed
    /// when a job asks.
    pub(crate) fn refresh_classic(&mut self) {
        for a in 1..self.parent.len() as Assoc {
            self.efctv[a as usize] = None;
        }
        for a in self.children[ROOT as usize].clone() {
            self.set_efctv(a);
        }
    }

    /// `_set_assoc_usage_efctv`: the children of the root take their own
    /// normalised usage; others `ua + (ue_parent − ua) × s / s_siblings`
    /// (`_set_usage_efctv`).
    fn set_efctv(&mut self, a: Assoc) -> f64 {
        let p = self.parent[a as usize];
        let ua = self.usage_norm(a);
        let e = if p == ROOT {
            ua
        } else {
            let ue_parent = match self.efctv[p as usize] {
                Some(e) => e,
                None => self.set_efctv(p),
            };
            let level = self.level_shares[a as usize];
            if level == 0 {
                ue_parent
            } else {
                ua + (ue_parent - ua) * (f64::from(self.shares[a as usize]) / level as f64)
            }
        };
        self.efctv[a as usize] = Some(e);
        e
    }

    /// The classic factor of a user association, `2^(−efctv / shares_norm)`
    /// (`priority_p_calc_fs_factor`, FairShareDampeningFactor 1).
    pub(crate) fn classic_factor(&mut self, a: Assoc) -> f64 {
        let e = match self.efctv[a as usize] {
            Some(e) => e,
            None => self.set_efctv(a),
        };
        let norm = self.shares_norm_classic(a);
        if norm <= 0.0 {
            return 0.0;
        }
        libm::pow(2.0, -(e / norm))
    }

    #[cfg(test)]
    pub(crate) fn usage_of(&self, a: Assoc) -> f64 {
        self.usage[a as usize]
    }

    pub(crate) fn fair_tree_factor(&self, a: Assoc) -> f64 {
        self.fs_factor[a as usize]
    }

    /// Fair Tree (`_apply_priority_fs`, src/plugins/priority/multifactor/
    /// fair_tree.c): siblings sorted by level fair-share `S / U` (shares
    /// over the sibling level, usage over the parent's), highest first,
    /// users before accounts on ties; accounts that tie are merged and
    /// their children ranked together; users take ranks from the number
    /// of users down, tied users sharing one; the factor is the rank
    /// over the number of users.
    pub(crate) fn compute_fair_tree(&mut self) {
        let mut rank = self.users;
        let mut rnt = self.users;
        let top = self.children[ROOT as usize].clone();
        self.rank_level(top, &mut rank, &mut rnt, false);
    }

    fn level_fs(&self, a: Assoc) -> f64 {
        let p = self.parent[a as usize];
        let parent_usage = self.usage[p as usize];
        let u = if parent_usage == 0.0 { 0.0 } else { self.usage[a as usize] / parent_usage };
        let s = self.level_share(a);
        if s == 0.0 {
            0.0
        } else {
            s / u
        }
    }

    fn rank_level(&mut self, mut siblings: Vec<Assoc>, rank: &mut u32, rnt: &mut u32, account_tied: bool) {
        let mut keyed: Vec<(f64, Assoc)> = siblings.drain(..).map(|a| (self.level_fs(a), a)).collect();
        // Highest level fair-share first; users before accounts on a tie;
        // the rest of a tie keeps the association order (Slurm's qsort
        // leaves it unspecified, and tied users share a rank anyway).
        keyed.sort_by(|x, y| {
            y.0.total_cmp(&x.0).then_with(|| self.is_user[y.1 as usize].cmp(&self.is_user[x.1 as usize]))
        });
        let mut prev: Option<f64> = None;
        let mut i = 0;
        while i < keyed.len() {
            let (fs, a) = keyed[i];
            let tied = if i == 0 && account_tied { true } else { prev == Some(fs) };
            if self.is_user[a as usize] {
                if !tied {
                    *rank = *rnt;
                }
                self.fs_factor[a as usize] = f64::from(*rank) / f64::from(self.users.max(1));
                *rnt = rnt.saturating_sub(1);
            } else {
                let mut merged = Vec::new();
                let mut k = i;
                loop {
                    merged.extend_from_slice(&self.children[keyed[k].1 as usize]);
                    match keyed.get(k + 1) {
                        Some(&(f, b)) if !self.is_user[b as usize] && f == fs => k += 1,
                        _ => break,
                    }
                }
                self.rank_level(merged, rank, rnt, tied);
                i = k;
            }
            prev = Some(fs);
            i += 1;
        }
    }
}

/// Reads the `Shares` parameter: comma-separated `ACCOUNT=N` and
/// `ACCOUNT/USER=N`, with the trace's group and user numbers.
pub(crate) fn parse_shares(text: &str) -> Result<Shares, String> {
    let mut out = BTreeMap::new();
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let bad = || format!("Shares entry `{entry}` is not ACCOUNT=N or ACCOUNT/USER=N (whole numbers)");
        let (key, n) = entry.split_once('=').ok_or_else(bad)?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        let key = match key.split_once('/') {
            Some((a, u)) => (a.trim().parse().map_err(|_| bad())?, Some(u.trim().parse().map_err(|_| bad())?)),
            None => (key.trim().parse().map_err(|_| bad())?, None),
        };
        if out.insert(key, n).is_some() {
            return Err(format!("Shares entry `{entry}` repeats an association"));
        }
    }
    Ok(out)
}
