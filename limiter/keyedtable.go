package limiter

import "sync/atomic"

// A shard's keys: an open-addressing hash table with linear probing
// (Peterson 1957; Knuth, TAOCP vol. 3, 6.4, algorithm L) from a key's 64-bit
// hash to its entry. A Go map would do, but a request to one of a million
// keys is bound by memory, not by arithmetic: a large Go map finds a key
// through its directory, a table header and a group (control word, then
// slot), where this table reads one 16-byte slot (rarely two, at load ≤ 7/8)
// and then the entry, which holds the key to compare. That is one dependent
// cache miss fewer per request.
//
// A slot is empty (h nil), deleted (h == deleted: probing goes on past it),
// or holds an entry and its key's hash. Entries never move but when the
// table is replaced, so a scan by index that releases the shard's lock
// between batches still meets every entry held throughout (on the slice it
// started with, if the table was replaced meanwhile).
//
// Requests read a shard's slots without its lock (see shard.find): slots
// are read and written atomically (a plain load on amd64 and arm64), a slot
// only ever goes from empty to an entry, from an entry to deleted and from
// deleted to an entry (hash stored before h), and a replaced table's slots
// are published whole. A reader can so find an entry just removed (its
// evicted flag says so, under the entry's lock) or miss one just created
// (it then takes the shard's lock and looks again), never a wrong one.

type slot struct {
	hash atomic.Uint64
	h    atomic.Pointer[header]
}

type table struct {
	slots []slot
	live  int // entries held
	used  int // slots not empty: entries and deleted slots
}

// deleted marks a slot whose entry was removed.
var deleted = &header{}

// A table is replaced by one of newTableSize(live) slots when an insert
// would fill more than 7/8 of its slots (entries and deleted slots): it is
// then at most 7/12 full, so it grows by 1.5×, and its slots cost at most
// 16 × 12/7 ≈ 27 bytes per key.
const (
	maxLoadNum, maxLoadDen = 7, 8
	minTableSize           = 8
)

func newTableSize(n int) int { return max(minTableSize, (n*12+6)/7) }

// home is the first slot probed for hash in a table of n slots: the hash's
// high 32 bits scaled to n (Lemire's multiply-shift reduction), so any size
// works and the low bits, which picked the shard, are not used again.
func home(hash uint64, n int) int {
	return int((hash >> 32) * uint64(n) >> 32)
}

// lookup returns the entry of key, whose hash is hash, or nil.
func (t *table) lookup(hash uint64, key string) *header { return lookup(t.slots, hash, key) }

// lookup returns the entry of key, whose hash is hash, in slots, or nil.
func lookup(slots []slot, hash uint64, key string) *header {
	n := len(slots)
	if n == 0 {
		return nil
	}
	for i := home(hash, n); ; {
		s := &slots[i]
		h := s.h.Load()
		if h == nil {
			return nil
		}
		if h != deleted && s.hash.Load() == hash && h.key == key {
			return h
		}
		if i++; i == n {
			i = 0
		}
	}
}

// holds reports whether h is held under hash.
func (t *table) holds(hash uint64, h *header) bool {
	n := len(t.slots)
	if n == 0 {
		return false
	}
	for i := home(hash, n); t.slots[i].h.Load() != nil; {
		if t.slots[i].h.Load() == h {
			return true
		}
		if i++; i == n {
			i = 0
		}
	}
	return false
}

// insert adds h under hash; the table must not hold h's key.
func (t *table) insert(hash uint64, h *header) {
	if (t.used+1)*maxLoadDen > len(t.slots)*maxLoadNum {
		t.resize(newTableSize(t.live + 1))
	}
	n := len(t.slots)
	for i := home(hash, n); ; {
		s := &t.slots[i]
		if was := s.h.Load(); was == nil || was == deleted {
			if was == nil {
				t.used++
			}
			s.hash.Store(hash)
			s.h.Store(h)
			t.live++
			return
		}
		if i++; i == n {
			i = 0
		}
	}
}

// remove removes h, held under hash, and reports whether it was held.
func (t *table) remove(hash uint64, h *header) bool {
	n := len(t.slots)
	if n == 0 {
		return false
	}
	for i := home(hash, n); t.slots[i].h.Load() != nil; {
		if t.slots[i].h.Load() == h {
			t.slots[i].h.Store(deleted)
			t.live--
			return true
		}
		if i++; i == n {
			i = 0
		}
	}
	return false
}

// resize moves the entries to a new slice of size slots.
func (t *table) resize(size int) {
	old := t.slots
	*t = table{slots: make([]slot, size)}
	for i := range old {
		if h := old[i].h.Load(); h != nil && h != deleted {
			t.insert(old[i].hash.Load(), h)
		}
	}
}
