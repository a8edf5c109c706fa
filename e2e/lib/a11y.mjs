// @ts-check
/**
 * Accessibility checks in the page with axe-core (from npm): the serious
 * and critical violations of what is on the screen now.
 */

import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** axe-core's browser bundle. */
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical violations axe-core finds in the page, one line
 * each (rule, impact, what it asks, up to three elements).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
export async function seriousViolations(page) {
  // Evaluated rather than added as a script: the server's Content Security
  // Policy allows only its own scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    /** @type {any} */
    const axe = /** @type {any} */ (window).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
      .map((/** @type {any} */ v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')).join(', ')}`);
  });
}
