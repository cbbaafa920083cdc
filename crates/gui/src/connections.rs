//! Who holds the server's connections. A client that opens connections and
//! sends nothing (or a header line now and then: slowloris) holds them
//! until the header timeout; from one address it may hold at most its
//! share of the slots ([`ConnectionLimits::per_address`]), so that others
//! keep theirs. A connection past that share, or past every slot, still
//! gets a spare slot: a short time to send its request
//! ([`ConnectionLimits::spare_header_timeout`]), an answer, then the end
//! of the connection. A page sends its request at once, so a person on the
//! same address as a flood (loopback, where every local program is one
//! address) is still answered; the flood's spare connections are cut off
//! after the short time, and when every spare slot is taken the oldest
//! that has sent nothing makes room for the newcomer. Only when every
//! spare connection is answering a request is one more refused (503).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;

/// Connections served at once with the full header timeout; see
/// [`ConnectionLimits`].
pub const MAX_CONNECTIONS: usize = 256;

/// Of those, the most one address holds: a quarter, so that a flood from
/// one address leaves three quarters to the others.
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 64;

/// The time a client has to send a request's headers (also the longest a
/// kept-alive connection waits idle for its next request).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Spare slots: connections past an address's share or past every slot.
pub const SPARE_CONNECTIONS: usize = 256;

/// The time a connection in a spare slot has to send its request.
pub const SPARE_HEADER_TIMEOUT: Duration = Duration::from_secs(2);

/// What the accept loop allows each client.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// Connections served at once with the full header timeout and
    /// kept alive between requests.
    pub max_connections: usize,
    /// Of those, the most one client address holds.
    pub per_address: usize,
    /// The time a client has to send a request's headers.
    pub header_timeout: Duration,
    /// Spare slots for connections past an address's share or past
    /// `max_connections`: each answers one request and closes. When they
    /// are all taken, one more is answered 503 and closed.
    pub spare_connections: usize,
    /// The time a connection in a spare slot has to send its request.
    pub spare_header_timeout: Duration,
}

impl Default for ConnectionLimits {
    /// [`MAX_CONNECTIONS`], [`MAX_CONNECTIONS_PER_ADDRESS`],
    /// [`HEADER_TIMEOUT`], [`SPARE_CONNECTIONS`] and
    /// [`SPARE_HEADER_TIMEOUT`].
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            max_connections: MAX_CONNECTIONS,
            per_address: MAX_CONNECTIONS_PER_ADDRESS,
            header_timeout: HEADER_TIMEOUT,
            spare_connections: SPARE_CONNECTIONS,
            spare_header_timeout: SPARE_HEADER_TIMEOUT,
        }
    }
}

/// The connections held now.
pub struct Connections {
    limits: ConnectionLimits,
    held: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    /// Regular slots taken, in all and by address.
    regular: usize,
    by_address: HashMap<IpAddr, usize>,
    /// Spare slots taken, the oldest first.
    spares: VecDeque<SpareState>,
    next_spare: u64,
}

#[derive(Clone)]
struct SpareState {
    id: u64,
    /// Its first request has arrived.
    started: Arc<AtomicBool>,
    /// Tells its connection to end.
    evict: Arc<Notify>,
}

/// The slot a new connection gets.
pub enum Slot {
    /// A regular slot: the full header timeout, kept alive.
    Regular(Regular),
    /// A spare slot: the short header timeout, one request.
    Spare(Spare),
    /// None: answered 503 and closed.
    Refused,
}

/// A regular slot, given back when dropped.
pub struct Regular {
    connections: Arc<Connections>,
    address: IpAddr,
}

/// A spare slot, given back when dropped.
pub struct Spare {
    connections: Arc<Connections>,
    state: SpareState,
}

impl Spare {
    /// The flag its connection sets when its request arrives.
    pub fn started(&self) -> Arc<AtomicBool> {
        self.state.started.clone()
    }

    /// Completes when the slot is taken back for a newer connection (its
    /// connection had sent no request yet).
    pub async fn evicted(&self) {
        self.state.evict.notified().await;
    }

    /// True once its request has arrived.
    pub fn has_started(&self) -> bool {
        self.state.started.load(Ordering::SeqCst)
    }
}

impl Connections {
    /// No connection held, under `limits`.
    pub fn new(limits: ConnectionLimits) -> Arc<Connections> {
        Arc::new(Connections {
            limits,
            held: Mutex::new(Held::default()),
        })
    }

    /// The limits.
    pub fn limits(&self) -> ConnectionLimits {
        self.limits
    }

    fn held(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The slot for a new connection from `address` (see the module's
    /// comment).
    pub fn admit(self: &Arc<Connections>, address: IpAddr) -> Slot {
        let mut held = self.held();
        let mine = held.by_address.get(&address).copied().unwrap_or(0);
        if held.regular < self.limits.max_connections && mine < self.limits.per_address {
            held.regular += 1;
            *held.by_address.entry(address).or_default() += 1;
            return Slot::Regular(Regular {
                connections: self.clone(),
                address,
            });
        }
        if held.spares.len() >= self.limits.spare_connections {
            // The oldest that has sent nothing gives its slot up.
            let idle = held
                .spares
                .iter()
                .position(|s| !s.started.load(Ordering::SeqCst));
            let Some(victim) = idle.and_then(|i| held.spares.remove(i)) else {
                return Slot::Refused;
            };
            victim.evict.notify_one();
        }
        let state = SpareState {
            id: held.next_spare,
            started: Arc::new(AtomicBool::new(false)),
            evict: Arc::new(Notify::new()),
        };
        held.next_spare += 1;
        held.spares.push_back(state.clone());
        Slot::Spare(Spare {
            connections: self.clone(),
            state,
        })
    }

    /// Connections held now: in regular slots, by `address`, and in spare slots.
    pub fn counts(&self, address: IpAddr) -> (usize, usize, usize) {
        let held = self.held();
        let mine = held.by_address.get(&address).copied().unwrap_or(0);
        (held.regular, mine, held.spares.len())
    }
}

impl Drop for Regular {
    fn drop(&mut self) {
        let mut held = self.connections.held();
        held.regular = held.regular.saturating_sub(1);
        if let Some(n) = held.by_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                held.by_address.remove(&self.address);
            }
        }
    }
}

impl Drop for Spare {
    fn drop(&mut self) {
        let mut held = self.connections.held();
        if let Some(i) = held.spares.iter().position(|s| s.id == self.state.id) {
            held.spares.remove(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> ConnectionLimits {
        ConnectionLimits {
            max_connections: 4,
            per_address: 2,
            header_timeout: Duration::from_secs(10),
            spare_connections: 2,
            spare_header_timeout: Duration::from_secs(1),
        }
    }

    #[test]
    fn one_address_holds_its_share_then_spares_and_never_every_slot() {
        let c = Connections::new(limits());
        let flood: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        let slots: Vec<Slot> = (0..4).map(|_| c.admit(flood)).collect();
        assert!(matches!(slots[0], Slot::Regular(_)) && matches!(slots[1], Slot::Regular(_)));
        assert!(matches!(slots[2], Slot::Spare(_)) && matches!(slots[3], Slot::Spare(_)));
        assert_eq!(c.counts(flood), (2, 2, 2));
        // The other address still gets regular slots.
        let theirs = c.admit(other);
        assert!(matches!(theirs, Slot::Regular(_)));
        // Every spare slot taken by one that sent nothing: the oldest makes room.
        let newcomer = c.admit(flood);
        assert!(matches!(newcomer, Slot::Spare(_)));
        assert_eq!(c.counts(flood).2, 2);
        // Spares that are answering a request are not taken back.
        for slot in [&slots[3], &newcomer] {
            if let Slot::Spare(s) = slot {
                s.started().store(true, Ordering::SeqCst);
            }
        }
        assert!(matches!(c.admit(flood), Slot::Refused));
        drop(slots);
        drop(newcomer);
        assert_eq!(c.counts(flood), (1, 0, 0), "the other address's slot");
        drop(theirs);
        assert_eq!(c.counts(other), (0, 0, 0));
    }
}
