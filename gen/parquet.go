package gen

import (
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// pqRow is one request as a Parquet row, with the columns and types of
// the shared sample file: time as timestamp(ms), optional columns for
// absent values, dictionary-encoded low-cardinality strings.
type pqRow struct {
	Time                 int64    `parquet:"time,timestamp(millisecond)"`
	RequestID            string   `parquet:"request_id"`
	AppID                string   `parquet:"app_id,dict"`
	RemoteAddr           string   `parquet:"remote_addr,dict"`
	ClientRegion         string   `parquet:"client_region,dict"`
	Region               string   `parquet:"region,dict"`
	Method               string   `parquet:"method,dict"`
	URI                  string   `parquet:"uri,dict"`
	Model                *string  `parquet:"model,optional,dict"`
	Stream               *bool    `parquet:"stream,optional"`
	Status               int32    `parquet:"status"`
	RequestTime          float64  `parquet:"request_time"`
	UpstreamResponseTime string   `parquet:"upstream_response_time"`
	FirstTokenMS         *float64 `parquet:"first_token_ms,optional"`
	UpstreamConnectTime  float64  `parquet:"upstream_connect_time"`
	SSLHandshakeTime     float64  `parquet:"ssl_handshake_time"`
	TCPInfoRTT           int64    `parquet:"tcpinfo_rtt"`
	Connection           int64    `parquet:"connection"`
	ConnectionRequests   int64    `parquet:"connection_requests"`
	RetryAfter           *int32   `parquet:"retry_after,optional"`
	PromptTokens         int32    `parquet:"prompt_tokens"`
	CompletionTokens     int32    `parquet:"completion_tokens"`
	BytesSent            int64    `parquet:"bytes_sent"`
	UserAgent            string   `parquet:"http_user_agent,dict"`
}

// ParquetRowGroup is how many rows WriteParquet puts in one row group.
const ParquetRowGroup = 10000

// WriteParquet writes a Parquet file, compressed with o.Codec (zstd by
// default), in row groups of ParquetRowGroup rows. A Parquet file cannot
// hold a malformed line, so BadEvery adds a bad row instead: a copy of
// the previous request with a negative request_time. It returns how many bad rows it added.
func WriteParquet(w io.Writer, reqs []Request, o WriteOptions) (int, error) {
	var codec compress.Codec = &parquet.Zstd
	if o.Codec != nil {
		codec = o.Codec
	}
	pw := parquet.NewGenericWriter[pqRow](w,
		parquet.Compression(codec),
		parquet.MaxRowsPerRowGroup(ParquetRowGroup),
		parquet.PageBufferSize(64<<10))
	rows := make([]pqRow, 0, 1024)
	bad := 0
	flush := func() error {
		if _, err := pw.Write(rows); err != nil {
			return err
		}
		rows = rows[:0]
		return nil
	}
	for i := range reqs {
		rows = append(rows, toPQRow(&reqs[i]))
		if o.BadEvery > 0 && (i+1)%o.BadEvery == 0 {
			b := toPQRow(&reqs[i])
			b.RequestTime = -1
			rows = append(rows, b)
			bad++
		}
		if len(rows) >= 1000 {
			if err := flush(); err != nil {
				return bad, err
			}
		}
	}
	if err := flush(); err != nil {
		return bad, err
	}
	return bad, pw.Close()
}

func toPQRow(r *Request) pqRow {
	row := pqRow{
		Time:                 r.Time.UnixMilli(),
		RequestID:            r.RequestID,
		AppID:                r.AppID,
		RemoteAddr:           r.RemoteAddr,
		ClientRegion:         r.ClientRegion,
		Region:               r.Region,
		Method:               r.Method,
		URI:                  r.URI,
		Status:               int32(r.Status),
		RequestTime:          r.RequestTime,
		UpstreamResponseTime: r.UpstreamString(),
		UpstreamConnectTime:  r.UpstreamConnect,
		SSLHandshakeTime:     r.SSLHandshake,
		TCPInfoRTT:           int64(r.TCPRTTus),
		Connection:           int64(r.Connection),
		ConnectionRequests:   int64(r.ConnectionRequests),
		PromptTokens:         int32(r.PromptTokens),
		CompletionTokens:     int32(r.CompletionTokens),
		BytesSent:            int64(r.BytesSent),
		UserAgent:            r.UserAgent,
	}
	if r.Model != "" {
		// A call without a model (the token endpoint) has no stream flag.
		m, st := r.Model, r.Stream
		row.Model, row.Stream = &m, &st
	}
	if !math.IsNaN(r.TTFTms) {
		v := r.TTFTms
		row.FirstTokenMS = &v
	}
	if r.RetryAfter > 0 {
		v := int32(r.RetryAfter)
		row.RetryAfter = &v
	}
	return row
}
