package delivery

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/models"
)

// metrics are the worker's Prometheus series: outcomes and send latency by
// kind, and the outbox's size by status (counted when scraped).
type metrics struct {
	deliveries *prometheus.CounterVec
	latency    *prometheus.HistogramVec
}

func newMetrics(reg prometheus.Registerer, counter MessageCounter) (*metrics, error) {
	m := &metrics{
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "markuproom_outbox_deliveries_total",
			Help: "Outbox send attempts by kind (email, webhook) and outcome (sent, retry, dead, held).",
		}, []string{"kind", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "markuproom_outbox_send_duration_seconds",
			Help:    "Time of one send (SMTP dialogue or webhook call) by kind.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"kind"}),
	}
	collectors := []prometheus.Collector{m.deliveries, m.latency}
	if counter != nil {
		collectors = append(collectors, &queueCollector{counter: counter, desc: prometheus.NewDesc(
			"markuproom_outbox_messages", "Messages in the outbox by status.", []string{"status"}, nil)})
	}
	for _, c := range collectors {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// observe records one send by the status it left the message in (a message
// pending again is counted as "retry").
func (m *metrics) observe(kind string, next models.MessageStatus, took time.Duration) {
	if m == nil {
		return
	}
	outcome := string(next)
	if next == models.MessagePending {
		outcome = "retry"
	}
	m.deliveries.WithLabelValues(kind, outcome).Inc()
	m.latency.WithLabelValues(kind).Observe(took.Seconds())
}

// MessageCounter counts the outbox's messages by status.
type MessageCounter interface {
	CountMessages(ctx context.Context) (map[models.MessageStatus]int64, error)
}

// queueCollector reports the outbox's size at each scrape (one GROUP BY).
type queueCollector struct {
	counter MessageCounter
	desc    *prometheus.Desc
}

func (q *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- q.desc }

func (q *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	counts, err := q.counter.CountMessages(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(q.desc, err)
		return
	}
	for _, s := range models.MessageStatuses() {
		ch <- prometheus.MustNewConstMetric(q.desc, prometheus.GaugeValue, float64(counts[s]), string(s))
	}
}
