// @ts-check
/**
 * Checks a finished game's dice in the browser (scheme `spelbord-dice-v1`,
 * docs/server.md): the revealed server seed against its commitment, then
 * every chance step of the replay against HMAC-SHA256 of the seeds.
 */

import { t } from './i18n.js';

/** @param {string} hex */
function bytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {ArrayBuffer} buf */
function toHex(buf) {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The number in [0, 1) that chooses the chance action at `version`.
 * @param {CryptoKey} key @param {string} table @param {number} version @param {string[]} seatSeeds
 */
async function draw(key, table, version, seatSeeds) {
  const message = `spelbord-dice-v1:${table}:${version}` + seatSeeds.map((s) => `:${s}`).join('');
  const mac = new DataView(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)));
  const first = (BigInt(mac.getUint32(0)) << 32n) | BigInt(mac.getUint32(4));
  return Number(first >> 11n) / 2 ** 53;
}

/**
 * @typedef {{scheme: string, table: string, commitment: string, server_seed: string | null, seat_seeds: string[]}} Dice
 * @typedef {{version: number, text: string | null, chance?: {text: string, p: number}[]}} Step
 * @typedef {{ok: true, checked: number} | {ok: false, reason: string}} Verdict
 */

/**
 * Verifies the dice of a replay.
 * @param {Dice | null | undefined} dice @param {Step[]} steps
 * @returns {Promise<Verdict>}
 */
export async function verifyDice(dice, steps) {
  if (!dice || dice.scheme !== 'spelbord-dice-v1') return { ok: false, reason: t('dice.none') };
  if (!dice.server_seed) return { ok: false, reason: t('dice.later') };
  const seed = bytes(dice.server_seed);
  if (toHex(await crypto.subtle.digest('SHA-256', seed)) !== dice.commitment) {
    return { ok: false, reason: t('dice.mismatch') };
  }
  const key = await crypto.subtle.importKey('raw', seed, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  let checked = 0;
  for (const step of steps) {
    if (!step.chance || step.chance.length === 0) continue;
    const x = await draw(key, dice.table, step.version, dice.seat_seeds);
    let sum = 0;
    let chosen = step.chance[step.chance.length - 1].text;
    for (const outcome of step.chance) {
      sum += outcome.p;
      if (x < sum) { chosen = outcome.text; break; }
    }
    if (chosen !== step.text) {
      return { ok: false, reason: t('dice.wrong_roll', { version: step.version, roll: step.text, seeded: chosen }) };
    }
    checked++;
  }
  return { ok: true, checked };
}

/** A short form of a commitment for display. @param {string} commitment */
export function shortCommitment(commitment) {
  return `${commitment.slice(0, 12)}…`;
}
