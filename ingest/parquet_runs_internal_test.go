package ingest

import "testing"

// TestGroupRuns gives the row groups of files of several sizes to
// groupRun as the reader does: each worker's unit is a run of
// consecutive row groups, the runs cover the file in order, none holds
// more than a (2 × workers)th of the row groups left when it started,
// the first holds that many, and the last ones are single row groups.
func TestGroupRuns(t *testing.T) {
	for _, workers := range []int{2, 3, 7} {
		for _, n := range []int{2 * workers, 13, 223, 1000} {
			p := &pipeline{opts: Options{Workers: workers}, work: make(chan unit, n)}
			s := &rowSink{p: p}
			var run groupRun
			for g := range n {
				run.add(s, &pqGroup{index: g}, n-g)
			}
			run.end()
			close(p.work)
			next, last, first := 0, 0, 0
			for u := range p.work {
				size, start := 0, next
				for g := range u.groups {
					if g.index != next {
						t.Fatalf("workers %d, %d row groups: row group %d in a run after %d", workers, n, g.index, next-1)
					}
					next++
					size++
				}
				if limit := max(1, (n-start)/(2*workers)); size == 0 || size > limit {
					t.Errorf("workers %d, %d row groups: a run of %d from %d, want 1 to %d", workers, n, size, start, limit)
				}
				last = size
				if start == 0 {
					first = size
				}
			}
			if want := max(1, n/(2*workers)); first != want {
				t.Errorf("workers %d, %d row groups: the first run holds %d, want %d", workers, n, first, want)
			}
			if next != n || last != 1 {
				t.Errorf("workers %d, %d row groups: the runs cover %d, the last of %d; want %d, 1", workers, n, next, last, n)
			}
		}
	}
}
