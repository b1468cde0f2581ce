// Child process of the site-op scenario: the site platform simulator on its own event loop, as the real platform is
// another machine, so neither the load generator nor our API shares its CPU time. Prints one JSON line when seeded.
import { startSitePlatformSimulator } from '../../src/sandbox/sitePlatform';
import { REQUESTED_SCOPES } from '../../src/sitePlatform/connections/scopes';

/** Advertised per-token limit: the service sizes its token bucket from X-RateLimit-Limit, so this lifts both sides. */
const BENCH_RATE_LIMIT = 100_000_000;

async function main() {
  const items = Number(process.env.BENCH_SITE_ITEMS ?? 25);
  const sim = await startSitePlatformSimulator();
  const site = sim.addSite({ displayName: 'Bench site', customDomains: ['www.bench.example.test'] });
  const collection = sim.addCollection(site.id, {
    displayName: 'Posts',
    singularName: 'Post',
    fields: [{ slug: 'summary' }, { slug: 'body', type: 'RichText' }],
  });
  sim.addItems(
    collection.id,
    Array.from({ length: items }, (_, i) => ({
      fieldData: {
        name: `Post ${i + 1}`,
        summary: `What post ${i + 1} is about, in one line.`,
        body: `<p>Body of post ${i + 1}.</p>`.repeat(4),
      },
      published: true,
    })),
  );
  sim.addPage(site.id, { title: 'Home', slug: 'index' });
  // One token per side, so neither draws on the other's window.
  const issue = () => sim.issueToken({ scopes: [...REQUESTED_SCOPES], siteIds: [site.id], rateLimitPerMinute: BENCH_RATE_LIMIT });
  console.log(
    JSON.stringify({
      baseUrl: sim.baseUrl,
      siteId: site.id,
      collectionId: collection.id,
      items,
      ourToken: issue(),
      baselineToken: issue(),
    }),
  );
  process.on('SIGTERM', () => {
    // The request log tells the parent how many calls reached the platform (one per line of stderr would be noise).
    console.log(JSON.stringify({ requests: sim.requests().length }));
    void sim.stop().then(() => process.exit(0));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
