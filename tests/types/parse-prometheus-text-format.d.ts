/**
 * Types of parse-prometheus-text-format 1.1 (it ships none), as its README describes its output: one family per
 * metric name; counters and gauges have `value`, histograms `buckets` (upper bound → cumulative count), `count` and
 * `sum`, summaries `quantiles`. Every number stays the text it was written as.
 */
declare module 'parse-prometheus-text-format' {
  namespace parsePrometheusTextFormat {
    interface Sample {
      labels?: Record<string, string>;
      value?: string;
      buckets?: Record<string, string>;
      quantiles?: Record<string, string>;
      count?: string;
      sum?: string;
    }
    interface MetricFamily {
      name: string;
      help: string;
      type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
      metrics: Sample[];
    }
  }
  function parsePrometheusTextFormat(text: string): parsePrometheusTextFormat.MetricFamily[];
  export = parsePrometheusTextFormat;
}
