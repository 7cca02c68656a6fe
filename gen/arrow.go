package gen

import (
	"errors"
	"io"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// ArrowBatch is how many rows the Arrow writers put in one record batch.
const ArrowBatch = 8192

// arrowSchema has the columns of WriteParquet, with Arrow types: time as
// timestamp[ms], nullable columns for absent values.
var arrowSchema = arrow.NewSchema([]arrow.Field{
	{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
	{Name: "request_id", Type: arrow.BinaryTypes.String},
	{Name: "app_id", Type: arrow.BinaryTypes.String},
	{Name: "remote_addr", Type: arrow.BinaryTypes.String},
	{Name: "client_region", Type: arrow.BinaryTypes.String},
	{Name: "region", Type: arrow.BinaryTypes.String},
	{Name: "method", Type: arrow.BinaryTypes.String},
	{Name: "uri", Type: arrow.BinaryTypes.String},
	{Name: "model", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "stream", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "status", Type: arrow.PrimitiveTypes.Int32},
	{Name: "request_time", Type: arrow.PrimitiveTypes.Float64},
	{Name: "upstream_response_time", Type: arrow.BinaryTypes.String},
	{Name: "first_token_ms", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "upstream_connect_time", Type: arrow.PrimitiveTypes.Float64},
	{Name: "ssl_handshake_time", Type: arrow.PrimitiveTypes.Float64},
	{Name: "tcpinfo_rtt", Type: arrow.PrimitiveTypes.Int64},
	{Name: "connection", Type: arrow.PrimitiveTypes.Int64},
	{Name: "connection_requests", Type: arrow.PrimitiveTypes.Int64},
	{Name: "retry_after", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "prompt_tokens", Type: arrow.PrimitiveTypes.Int32},
	{Name: "completion_tokens", Type: arrow.PrimitiveTypes.Int32},
	{Name: "bytes_sent", Type: arrow.PrimitiveTypes.Int64},
	{Name: "http_user_agent", Type: arrow.BinaryTypes.String},
}, nil)

// WriteArrow writes an Arrow IPC file. The writer only asks for its
// position, so any io.Writer will do. Like WriteParquet, BadEvery adds a
// copy of the previous request with a negative request_time; it returns
// how many such rows it added.
func WriteArrow(w io.Writer, reqs []Request, o WriteOptions) (int, error) {
	fw, err := ipc.NewFileWriter(&countingWriter{w: w}, ipc.WithSchema(arrowSchema))
	if err != nil {
		return 0, err
	}
	bad, err := writeArrowBatches(fw, reqs, o)
	if err != nil {
		return bad, err
	}
	return bad, fw.Close()
}

// WriteArrowStream writes an Arrow IPC stream; see WriteArrow.
func WriteArrowStream(w io.Writer, reqs []Request, o WriteOptions) (int, error) {
	sw := ipc.NewWriter(w, ipc.WithSchema(arrowSchema))
	bad, err := writeArrowBatches(sw, reqs, o)
	if err != nil {
		return bad, err
	}
	return bad, sw.Close()
}

type recordWriter interface {
	Write(rec arrow.Record) error
}

func writeArrowBatches(w recordWriter, reqs []Request, o WriteOptions) (int, error) {
	b := array.NewRecordBuilder(memory.NewGoAllocator(), arrowSchema)
	defer b.Release()
	bad, rows := 0, 0
	flush := func() error {
		if rows == 0 {
			return nil
		}
		rec := b.NewRecord()
		defer rec.Release()
		rows = 0
		return w.Write(rec)
	}
	for i := range reqs {
		appendArrow(b, &reqs[i], reqs[i].RequestTime)
		rows++
		if o.BadEvery > 0 && (i+1)%o.BadEvery == 0 {
			appendArrow(b, &reqs[i], -1)
			rows++
			bad++
		}
		if rows >= ArrowBatch {
			if err := flush(); err != nil {
				return bad, err
			}
		}
	}
	return bad, flush()
}

func appendArrow(b *array.RecordBuilder, r *Request, requestTime float64) {
	str := func(i int, s string) { b.Field(i).(*array.StringBuilder).Append(s) }
	f64 := func(i int, v float64) { b.Field(i).(*array.Float64Builder).Append(v) }
	i64 := func(i int, v int) { b.Field(i).(*array.Int64Builder).Append(int64(v)) }
	i32 := func(i int, v int) { b.Field(i).(*array.Int32Builder).Append(int32(v)) }
	b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(r.Time.UnixMilli()))
	str(1, r.RequestID)
	str(2, r.AppID)
	str(3, r.RemoteAddr)
	str(4, r.ClientRegion)
	str(5, r.Region)
	str(6, r.Method)
	str(7, r.URI)
	if r.Model != "" {
		str(8, r.Model)
	} else {
		b.Field(8).AppendNull()
	}
	// A call without a model (the token endpoint) has no stream flag.
	if r.Model != "" {
		b.Field(9).(*array.BooleanBuilder).Append(r.Stream)
	} else {
		b.Field(9).AppendNull()
	}
	i32(10, r.Status)
	f64(11, requestTime)
	str(12, r.UpstreamString())
	if math.IsNaN(r.TTFTms) {
		b.Field(13).AppendNull()
	} else {
		f64(13, r.TTFTms)
	}
	f64(14, r.UpstreamConnect)
	f64(15, r.SSLHandshake)
	i64(16, r.TCPRTTus)
	i64(17, r.Connection)
	i64(18, r.ConnectionRequests)
	if r.RetryAfter > 0 {
		i32(19, r.RetryAfter)
	} else {
		b.Field(19).AppendNull()
	}
	i32(20, r.PromptTokens)
	i32(21, r.CompletionTokens)
	i64(22, r.BytesSent)
	str(23, r.UserAgent)
}

// countingWriter gives the Arrow file writer the position it asks for
// (Seek(0, io.SeekCurrent)) on a writer that cannot seek.
type countingWriter struct {
	w   io.Writer
	pos int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.pos += int64(n)
	return n, err
}

func (c *countingWriter) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return c.pos, errNoSeek
	}
	return c.pos, nil
}

var errNoSeek = errors.New("arrow writer: only the current position can be asked for")
