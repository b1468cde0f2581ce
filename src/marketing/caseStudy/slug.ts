import type { Knex } from '../../db/knex';
import { slugify } from '../categories/slug';
import { SEO } from '../seo/thresholds';
import { slugsStartingWith } from './store';

/** A title with no letter or digit a-z, 0-9 (e.g. all in another script) still gives a slug. */
const FALLBACK = 'case-study';
/** Room for the longest `-<n>` suffix looked for. */
const SUFFIX_ROOM = 5;

/**
 * The slug of a new case-study draft: its title's slug (the categories' `slugify`, kept within the SEO check's
 * length), or with `-2`, `-3` … the first that no content item of the account has yet.
 */
export async function caseStudySlug(trx: Knex.Transaction, accountId: string, title: string): Promise<string> {
  const base = (max: number) => slugify(title, max) || FALLBACK;
  // Every candidate below starts with the shortest base (each is a cut of the same full slug).
  const taken = await slugsStartingWith(trx, accountId, base(SEO.slugMax - SUFFIX_ROOM));
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? '' : `-${n}`;
    const slug = `${base(SEO.slugMax - suffix.length)}${suffix}`;
    if (!taken.has(slug)) return slug;
  }
}
