package ingest

// ISO 8601's duration form, PnYnMnWnDTnHnMnS, is how some writers put a
// duration in text:
//
//   - Polars' write_ndjson writes a Duration column with chrono's
//     TimeDelta Display (pola-rs/polars
//     crates/polars-json/src/json/write/serialize.rs, duration_serializer):
//     "PT0.162S", "PT3723.5S", "P0D", "-PT0.5S"; chrono before 0.4.20 put
//     the days apart, "P1DT2.5S";
//   - java.time.Duration.toString writes "PT8H6M12.345S", "PT1M2.5S",
//     "PT1H", a negative one with its sign on each part ("PT-0.5S"), and
//     Duration.parse takes the letters in either case, a day as 24 hours
//     and a comma as the decimal point.
//
// A day (D) is read as 24 hours and a week (W) as 7 days, as those
// writers mean them; a year (Y) or a month (M before T) has no fixed
// length, and such a value is refused. Only the last part may have a
// fraction, as ISO 8601 allows.

// isoDesignators are the parts of an ISO 8601 duration, in the order they
// must come, with their length in seconds: 0 for a year's and a month's,
// which have none. The date's parts come before T, the time's after.
var isoDesignators = [...]struct {
	letter byte
	time   bool
	secs   float64
}{
	{'Y', false, 0}, {'M', false, 0}, {'W', false, 7 * 86400}, {'D', false, 86400},
	{'H', true, 3600}, {'M', true, 60}, {'S', true, 1},
}

// isISODuration reports whether val begins as an ISO 8601 duration does:
// "P", after a sign or not. No number does.
func isISODuration(val []byte) bool {
	if len(val) > 0 && (val[0] == '-' || val[0] == '+') {
		val = val[1:]
	}
	return len(val) > 1 && (val[0] == 'P' || val[0] == 'p')
}

// isoDuration reads val as an ISO 8601 duration, in seconds; iso is false
// when val is not of that form. A year or a month in it makes it iso but
// unreadable (unfixedSpan). A negative duration is returned as it is, for
// duration to refuse. It does not allocate.
func isoDuration(val []byte) (secs float64, fl flaw, iso bool) {
	if !isISODuration(val) {
		return 0, unreadable, false
	}
	neg := val[0] == '-'
	i := 1
	if val[0] == '-' || val[0] == '+' {
		i = 2
	}
	next := 0 // the first of isoDesignators the next part may be
	inTime, timeParts, parts, calendar, frac := false, 0, 0, false, false
	for i < len(val) {
		if c := val[i]; c == 'T' || c == 't' {
			if inTime {
				return 0, unreadable, false
			}
			inTime, next = true, 4
			i++
			continue
		}
		if frac {
			return 0, unreadable, false // a fraction on a part before the last
		}
		// The number: a sign (Java's, on each part), digits, and a
		// fraction after '.' or ','.
		partNeg := false
		if c := val[i]; c == '-' || c == '+' {
			partNeg = c == '-'
			i++
		}
		var num [48]byte
		k, digits := 0, 0
		for ; i < len(val) && k < len(num); i++ {
			c := val[i]
			switch {
			case c >= '0' && c <= '9':
				num[k] = c
				digits++
			case (c == '.' || c == ',') && !frac:
				num[k], frac = '.', true
			default:
				goto number
			}
			k++
		}
	number:
		if digits == 0 || i >= len(val) {
			return 0, unreadable, false
		}
		n, ok := parseNumber(num[:k])
		if !ok {
			return 0, unreadable, false
		}
		d := val[i] &^ 0x20 // upper case
		i++
		j := next
		for j < len(isoDesignators) && (isoDesignators[j].letter != d || isoDesignators[j].time != inTime) {
			j++
		}
		if j == len(isoDesignators) {
			return 0, unreadable, false // unknown, out of order, or a date's part after T
		}
		next = j + 1
		parts++
		if inTime {
			timeParts++
		}
		if isoDesignators[j].secs == 0 {
			calendar = true
			continue
		}
		if partNeg {
			n = -n
		}
		secs += n * isoDesignators[j].secs
	}
	if parts == 0 || inTime && timeParts == 0 {
		return 0, unreadable, false
	}
	if calendar {
		return 0, unfixedSpan, true
	}
	if neg {
		secs = -secs
	}
	return secs, fine, true
}
