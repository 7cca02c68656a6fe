package ingest

import (
	"math"
	"testing"
)

// setPlain, where it sets a number, sets what setNumberText sets, and
// leaves to it every number it does not set: for each numeric kind and
// unit, over values at and past duration's checks.
func TestSetPlainAsSetNumberText(t *testing.T) {
	cols := []Bindings{
		{{Field: FRequestTime}}, {{Field: FRequestTime, Unit: UnitMilli}},
		{{Field: FTTFT}}, {{Field: FTTFT, Unit: UnitSecond}}, {{Field: FTTFT, Unit: UnitMicro}},
		{{Field: FUpstreamResponseTime}}, {{Field: FConnectionRequests}}, {{Field: FCompletionTokens}},
	}
	values := []float64{0, math.Copysign(0, -1), 0.001, 1, 12.571, 1e7, 1e7 + 1, 1e10, 1e13, -1, -0.5, 2.5,
		1 << 53, 1<<53 + 2, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64}
	kinds := map[uint8]bool{}
	for i := range cols {
		p := &newPutters(cols[i : i+1])[0] // one column to a field
		if !p.numeric() {
			t.Fatalf("column %v is not numeric (kind %d)", cols[i], p.kind)
		}
		kinds[p.kind] = true
		for _, v := range values {
			var plain, text Record
			plain.reset(&Schema{})
			text.reset(&Schema{})
			if !p.setPlain(&plain, v) {
				continue // left to setNumberText
			}
			errText := p.setNumberText(&text, v, []byte("x"), nil)
			f := cols[i][0].Field
			a, aok := plain.Float(f)
			b, bok := text.Float(f)
			if errText != nil || aok != bok || aok && math.Float64bits(a) != math.Float64bits(b) {
				t.Errorf("%v of %v: setPlain %v (%v), setNumberText %v (%v, %v)", v, cols[i], a, aok, b, bok, errText)
			}
		}
	}
	if !kinds[putFloat] || !kinds[putInt] {
		t.Fatalf("kinds covered: %v", kinds)
	}
}
