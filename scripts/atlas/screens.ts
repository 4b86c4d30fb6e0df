/**
 * Which screen a member sees in each state, and the named journeys.
 *
 * A shot is a screenshot taken in Chromium at 375 px, in zh and en, by tests/e2e/atlas.shots.spec.ts (run by
 * `npm run atlas`), and kept as docs/atlas/shots/<shot>.<lng>.webp. Its name is a screen of the visual check
 * (tests/e2e/support/visualScreens.ts) or one of the atlas' own (tests/e2e/support/atlasScreens.ts), which reach
 * the states the visual check does not: a wallet refusing, a network call dropping mid-payment, goods selling out.
 *
 * Every state of every machine is listed: `own` when the state has a screen of its own, otherwise the screen that
 * shows it (a background step, or a moment too short to photograph, is seen on the screen around it). The atlas
 * check fails when a state is missing here, when a listed state no longer exists, or when a shot is missing.
 */

export interface StateScreen {
  shot: string;
  own: boolean;
}

export type ScreenOf = (machine: string, stateId: string) => StateScreen | null;

const own = (shot: string): StateScreen => ({ shot, own: true });
const on = (shot: string): StateScreen => ({ shot, own: false });

/** State id → its screen. */
export const stateScreens: Readonly<Record<string, StateScreen>> = {
  // Getting in: the sign-in page.
  'wallet.idle': own('login'),
  'wallet.idle.ready': own('login'),
  'wallet.idle.noWallet': own('open-in-wallet'),
  'wallet.activating': on('login'),
  'wallet.activating.discovering': on('login'),
  'wallet.activating.searching': on('login'),
  'wallet.activating.choosingProvider': on('login'),
  'wallet.activating.readingAccounts': on('login'),
  'wallet.activating.requestingAccounts': on('login'),
  'wallet.activating.awaitingWallet': on('login'),
  'wallet.activating.readingChain': on('login'),
  'wallet.switchingChain': on('login'),
  'wallet.addingChain': on('login'),
  'wallet.switchingManually': own('wallet-manual-switch'),
  'wallet.active': own('login-connected'),
  'auth.restoring': on('login'),
  'auth.signedOut': own('login'),
  'auth.signingIn': on('login-connected'),
  'auth.signingIn.fetchingNonce': on('login-connected'),
  'auth.signingIn.signingMessage': on('login-connected'),
  'auth.signingIn.verifying': on('login-connected'),
  'auth.bindRequired': own('register'),
  'auth.bindRequired.editing': own('register'),
  'auth.bindRequired.binding': on('register'),
  'auth.signedIn': own('home'),
  'auth.signedIn.loadingProfile': on('home'),
  'auth.signedIn.profileFailed': own('home-profile-failed'),
  'auth.signedIn.ready': own('home'),
  'auth.signedIn.ready.fresh': on('home'),
  'auth.signedIn.ready.stale': on('home'),
  'auth.signingOut': on('login'),
  'config.restoring': on('login'),
  'config.loading': on('login'),
  'config.loaded': on('login'),
  'config.failed': on('login'),
  // The member area.
  'copy.idle': own('invitation'),
  'copy.copying': on('invitation'),
  'copy.copied': on('invitation'),
  'copy.failed': on('invitation'),
  'pagedList.loading': on('announcements'),
  'pagedList.failed': own('announcements-error'),
  'pagedList.empty': own('team'),
  'pagedList.loaded': own('announcements'),
  'pagedList.loaded.idle': own('announcements'),
  'pagedList.loaded.loadingMore': on('announcements'),
  'pagedList.loaded.loadMoreFailed': on('announcements'),
  'pagedList.loaded.complete': on('announcements'),
  'pagedList.refreshing': on('announcements'),
  'pagedList.refreshFailed': on('announcements'),
  'search.idle': own('team-search'),
  'search.tooShort': on('team-search'),
  'search.notHex': on('team-search'),
  'search.typing': on('team-search'),
  'search.searching': on('team-search'),
  'search.found': on('team-search'),
  'search.noMatch': own('team-search-no-match'),
  'search.failed': on('team-search'),
  'resource.loading': on('announcement-detail'),
  'resource.loaded': own('announcement-detail'),
  'resource.notFound': own('announcement-missing'),
  'resource.failed': own('announcement-detail-error'),
  // Money.
  'withdraw.editing': own('withdraw-sheet'),
  'withdraw.confirming': own('withdraw-summary'),
  'withdraw.submitting': on('withdraw-sheet'),
  'withdraw.interrupted': on('withdraw-failed'),
  'withdraw.failed': own('withdraw-failed'),
  'withdraw.done': own('withdraw-done'),
  'withdraw.sessionEnded': on('login'),
  'transfer.editing': own('transfer-sheet'),
  'transfer.confirming': on('transfer-sheet'),
  'transfer.submitting': on('transfer-sheet'),
  'transfer.interrupted': on('transfer-sheet'),
  'transfer.failed': on('transfer-sheet'),
  'transfer.done': on('transfer-sheet'),
  'transfer.sessionEnded': on('login'),
  'exchange.editing': own('exchange-sheet'),
  'exchange.confirming': on('exchange-sheet'),
  'exchange.submitting': on('exchange-sheet'),
  'exchange.interrupted': on('exchange-sheet'),
  'exchange.failed': on('exchange-sheet'),
  'exchange.done': on('exchange-sheet'),
  'exchange.sessionEnded': on('login'),
  'topUp.starting': on('top-up-sheet'),
  'topUp.preparing': on('top-up-sheet'),
  'topUp.unavailable': on('top-up-sheet'),
  'topUp.editing': own('top-up-sheet'),
  'topUp.awaitingWallet': on('top-up-sheet'),
  'topUp.walletBusy': on('top-up-sheet'),
  'topUp.confirming': on('top-up-sheet'),
  'topUp.waitingForBlocks': on('top-up-sheet'),
  'topUp.notFound': on('top-up-sheet'),
  'topUp.failed': on('top-up-sheet'),
  'topUp.replaced': on('top-up-sheet'),
  'topUp.credited': on('top-up-sheet'),
  // The token in the wallet: beside the top-up's form and receipt (and the withdrawal's).
  'watchAsset.idle': on('top-up-sheet'),
  'watchAsset.adding': on('top-up-sheet'),
  'watchAsset.added': on('top-up-sheet'),
  'watchAsset.declined': on('top-up-sheet'),
  'watchAsset.unsupported': on('top-up-sheet'),
  'watchAsset.failed': on('top-up-sheet'),
  // The shop.
  'settlement.starting': on('settlement'),
  'settlement.noGoods': own('settlement-no-goods'),
  'settlement.goodsNotFound': own('settlement-goods-not-found'),
  'settlement.loading': on('settlement'),
  'settlement.loadFailed': own('settlement-error'),
  'settlement.ready': own('settlement'),
  'settlement.checking': on('settlement'),
  'settlement.paying': on('settlement'),
  'settlement.refreshing': on('settlement-sold-out'),
  'settlement.interrupted': on('settlement'),
  'settlement.failed': on('settlement'),
  'settlement.paid': own('settlement-paid'),
  'settlement.sessionEnded': on('login'),
  'addressForm.editing': own('address-add'),
  'addressForm.saving': on('address-add'),
  'addressForm.failed': on('address-add'),
  'addressForm.confirmingLeave': on('address-add'),
  'addressForm.saved': on('address-book'),
  'addressForm.left': on('address-book'),
  'addressForm.sessionEnded': on('login'),
  'addressBook.loading': on('address-book'),
  'addressBook.loadFailed': own('address-book-error'),
  'addressBook.empty': own('address-book'),
  'addressBook.loaded': own('address-book-loaded'),
  'addressBook.confirmingDelete': on('address-book'),
  'addressBook.deleting': on('address-book'),
  'addressBook.deleteFailed': on('address-book'),
  'addressBook.settingDefault': on('address-book'),
  'addressBook.setDefaultFailed': on('address-book'),
  'addressBook.chosen': on('settlement'),
  'addressBook.sessionEnded': on('login'),
  // The operators' desk (/ops): its sign-in, the withdrawals' queue and one withdrawal, held top-ups, orders, a member.
  'opsSession.checking': on('ops-sign-in'),
  'opsSession.checkFailed': on('ops-sign-in'),
  'opsSession.signedOut': own('ops-sign-in'),
  'opsSession.signingIn': on('ops-sign-in'),
  'opsSession.signingIn.fetchingNonce': on('ops-sign-in'),
  'opsSession.signingIn.signingMessage': on('ops-sign-in'),
  'opsSession.signingIn.verifying': on('ops-sign-in'),
  'opsSession.signedIn': own('ops-overview'),
  'opsSession.signingOut': on('ops-sign-in'),
  'withdrawalDecision.sorting': on('ops-withdrawal'),
  'withdrawalDecision.ready': own('ops-withdrawal'),
  'withdrawalDecision.form': on('ops-withdrawal'),
  'withdrawalDecision.busy': on('ops-withdrawal'),
  'withdrawalDecision.refused': on('ops-withdrawal'),
  'withdrawalDecision.closed': on('ops-withdrawals'),
  'withdrawalBulkApproval.sorting': on('ops-withdrawals'),
  'withdrawalBulkApproval.ready': own('ops-withdrawals'),
  'withdrawalBulkApproval.form': on('ops-withdrawals'),
  'withdrawalBulkApproval.busy': on('ops-withdrawals'),
  'withdrawalBulkApproval.refused': on('ops-withdrawals'),
  'withdrawalBulkApproval.closed': on('ops-withdrawals'),
  'heldTopUp.sorting': on('ops-top-ups'),
  'heldTopUp.ready': on('ops-top-ups'),
  'heldTopUp.form': on('ops-top-ups'),
  'heldTopUp.busy': on('ops-top-ups'),
  'heldTopUp.refused': on('ops-top-ups'),
  'heldTopUp.closed': on('ops-top-ups'),
  'orderShipping.sorting': on('ops-orders'),
  'orderShipping.ready': own('ops-orders'),
  'orderShipping.form': on('ops-orders'),
  'orderShipping.busy': on('ops-orders'),
  'orderShipping.refused': on('ops-orders'),
  'orderShipping.closed': on('ops-orders'),
  // Content: a new notice written beside the list, a published one with its preview.
  'noticePublication.sorting': on('ops-notice'),
  'noticePublication.editing': own('ops-notices'),
  'noticePublication.previewing': on('ops-notices'),
  'noticePublication.saving': on('ops-notices'),
  'noticePublication.draft': on('ops-notice'),
  'noticePublication.published': own('ops-notice'),
  'noticePublication.changing': on('ops-notice'),
  'noticePublication.refused': on('ops-notice'),
  'opsAction.sorting': on('ops-member'),
  'opsAction.ready': own('ops-member'),
  'opsAction.form': on('ops-member'),
  'opsAction.busy': on('ops-member'),
  'opsAction.refused': on('ops-member'),
};

/**
 * What the member sees right after a transition, where that differs from its target state's usual screen: the
 * answers a product owner asks about (a refusal in the wallet, a dropped network call, goods that sold out).
 * Transition text key → shot.
 */
export const transitionScreens: Readonly<Record<string, string>> = {
  'wallet.switchingChain:error.switchChain': 'wallet-switch-refused',
  'withdraw.submitting:error.submit': 'withdraw-failed',
  'settlement.paying:done.settle[isFixedByConfirmingAgain]': 'settlement-sold-out',
  'settlement.refreshing:done.refreshCheckout': 'settlement-sold-out',
  'settlement.checking:done.checkBeforePaying': 'settlement-sold-out',
};

export const screenOf: ScreenOf = (_machine, stateId) => stateScreens[stateId] ?? null;

/** Every shot the atlas shows. */
export function shotsInUse(): string[] {
  return [...new Set([...Object.values(stateScreens).map((screen) => screen.shot), ...Object.values(transitionScreens)])].sort();
}

/** A named journey (scripts/atlas/journeys.ts) with the id of its path on the machine's page. */
export interface Journey {
  machine: string;
  /** atlas.json key of its name: journey.<id>. */
  textKey: string;
  pathId: string;
}
