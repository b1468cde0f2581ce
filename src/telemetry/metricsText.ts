import type { Registry } from 'prom-client';
import { scrapeTemporalMetrics } from './metricsTemporal';

/**
 * One scrape: the registry's series, then the Temporal SDK's (when this process runs a Temporal runtime) with
 * `workyard_temporal_metrics_up` saying whether they could be read this time.
 */
export async function metricsText(registry: Registry): Promise<string> {
  const [ours, temporal] = await Promise.all([registry.metrics(), scrapeTemporalMetrics()]);
  if (!temporal) return ours;
  const up = [
    '# HELP workyard_temporal_metrics_up Whether the Temporal SDK metrics of this process could be read for this scrape.',
    '# TYPE workyard_temporal_metrics_up gauge',
    `workyard_temporal_metrics_up ${temporal.ok ? 1 : 0}`,
  ].join('\n');
  return `${ours.trimEnd()}\n${up}\n${temporal.text.trimEnd()}\n`;
}
