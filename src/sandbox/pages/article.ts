/**
 * An HTML article about `topic` with page chrome around it (navigation, a script, a style, a footer) and paragraphs
 * of sentences that carry facts (years, percentages, money, measured quantities) mixed with plain ones. At least
 * `paragraphs` paragraphs (default 5); with `characters`, paragraphs are added until the article's text reaches
 * that length. Deterministic: the same input gives the same page.
 */
export function articleHtml(input: { title: string; topic: string; paragraphs?: number; characters?: number }): string {
  const topic = input.topic.trim() || 'the topic';
  const paragraphs: string[] = [];
  let characters = 0;
  for (let i = 0; i < (input.paragraphs ?? 5) || characters < (input.characters ?? 0); i += 1) {
    const text = paragraph(topic, i);
    paragraphs.push(`<p>${escapeHtml(text)}</p>`);
    characters += text.length + 2;
  }
  const title = escapeHtml(input.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<style>body { font-family: sans-serif; } nav a { margin-right: 1em; }</style>
<script>window.analytics = { track: function () { return 'tracking-script-text'; } };</script>
</head>
<body>
<nav><a href="/">Home</a> <a href="/blog">Blog</a> <a href="/pricing">Pricing</a> <a href="/contact">Contact us</a></nav>
<main>
<article>
<h1>${title}</h1>
${paragraphs.join('\n')}
</article>
</main>
<footer><p>Copyright Example Media. All rights reserved.</p></footer>
<script>window.analytics.track('page-view');</script>
</body>
</html>
`;
}

function paragraph(topic: string, i: number): string {
  const lower = topic.toLowerCase();
  const facts = [
    `In ${2015 + (i % 10)}, ${lower} adoption grew by ${12 + ((i * 7) % 40)}% across ${((i % 9) + 3) * 150} surveyed households.`,
    `The average ${lower} project costs $${((i % 9) + 4) * 1100} and pays for itself within ${3 + (i % 6)} years.`,
    `Installers report that a typical ${lower} setup saves ${200 + i * 35} kWh per month.`,
    `A ${2018 + (i % 7)} study of ${lower} found that ${55 + (i % 40)} percent of owners would choose it again.`,
  ];
  const plain = [
    `Experts say ${lower} works best when it is planned carefully and maintained every season.`,
    `Many owners first hear about ${lower} from neighbours and local installers.`,
    `Choosing a qualified installer matters as much as choosing the equipment itself.`,
  ];
  return [facts[i % facts.length], plain[i % plain.length], facts[(i + 1) % facts.length], plain[(i + 1) % plain.length]].join(' ');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
