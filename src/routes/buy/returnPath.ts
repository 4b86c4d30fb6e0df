import type { DeliveryAddress } from '../../../api-schema/buy';
import { paths } from '../../app/paths';

/** Only a settlement page may be returned to (never an arbitrary URL from the query). */
const SETTLEMENT_PATH = /^\/buy\/settlement(?:\/[A-Za-z0-9_-]{1,64})?$/;

/**
 * Where the address book or form returns once the member chose or saved an address: the settlement page named by
 * `?return=`, or null (the book itself).
 *
 * @example returnPathOf(new URLSearchParams('return=/buy/settlement/longjing-tea')) // '/buy/settlement/longjing-tea'
 */
export function returnPathOf(searchParams: URLSearchParams): string | null {
  const value = searchParams.get('return');
  return value && SETTLEMENT_PATH.test(value) ? value : null;
}

/**
 * The settlement page with the chosen address (`?deliveryId=`), or the book after a save without a return.
 *
 * @example afterSave('/buy/settlement/jade-mug', address) // '/buy/settlement/jade-mug?deliveryId=12'
 */
export function afterSave(returnTo: string | null, address: Pick<DeliveryAddress, 'deliveryId'>): string {
  return returnTo ? `${returnTo}?deliveryId=${encodeURIComponent(address.deliveryId)}` : paths.shippingAddress.href();
}

/** A link that keeps the way back to settlement. */
export function withReturn(href: string, returnTo: string | null): string {
  return returnTo ? `${href}?return=${encodeURIComponent(returnTo)}` : href;
}
