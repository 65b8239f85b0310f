package limiter

// A shard's keys: an open-addressing hash table with linear probing
// (Peterson 1957; Knuth, TAOCP vol. 3, 6.4, algorithm L) from a key's 64-bit
// hash to its entry. A Go map would do, but a request to one of a million
// keys is bound by memory, not by arithmetic: a large Go map finds a key
// through its directory, a table header and a group (control word, then
// slot), where this table reads 16-byte slots from the key's home slot on
// (1.7 to 4.5 on average between its lowest and highest load, most often
// within one 64-byte line) and then the entry, which holds the key to
// compare. That is one dependent cache miss fewer per request.
//
// A slot is empty (h nil), deleted (h == deleted: probing goes on past it),
// or holds an entry and its key's hash. Entries never move but when the
// table is replaced, so a scan by index that releases the shard's lock
// between batches still meets every entry held throughout (on the slice it
// started with, if the table was replaced meanwhile).

type slot struct {
	hash uint64
	h    *header
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

// home is the first slot probed for hash: the hash's high 32 bits scaled to
// the table's size (Lemire's multiply-shift reduction), so any size works
// and the low bits, which picked the shard, are not used again.
func (t *table) home(hash uint64) int {
	return int((hash >> 32) * uint64(len(t.slots)) >> 32)
}

// lookup returns the entry of key, whose hash is hash, or nil.
func (t *table) lookup(hash uint64, key string) *header {
	n := len(t.slots)
	if n == 0 {
		return nil
	}
	for i := t.home(hash); ; {
		s := &t.slots[i]
		if s.h == nil {
			return nil
		}
		if s.hash == hash && s.h != deleted && s.h.key == key {
			return s.h
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
	for i := t.home(hash); t.slots[i].h != nil; {
		if t.slots[i].h == h {
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
	for i := t.home(hash); ; {
		s := &t.slots[i]
		if s.h == nil || s.h == deleted {
			if s.h == nil {
				t.used++
			}
			s.hash, s.h = hash, h
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
	for i := t.home(hash); t.slots[i].h != nil; {
		if t.slots[i].h == h {
			t.slots[i].h = deleted
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
	for _, s := range old {
		if s.h != nil && s.h != deleted {
			t.insert(s.hash, s.h)
		}
	}
}
