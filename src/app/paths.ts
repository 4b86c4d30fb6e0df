/**
 * Every route of spec section 2, with href builders. Route objects (src/app/router.tsx) and links use these, so a
 * path is written once.
 */
export const paths = {
  login: { pattern: '/login/:inviteCode?', href: (inviteCode?: string) => (inviteCode ? `/login/${encodeURIComponent(inviteCode)}` : '/login') },
  register: {
    pattern: '/register/:inviteCode?',
    href: (inviteCode?: string) => (inviteCode ? `/register/${encodeURIComponent(inviteCode)}` : '/register'),
  },
  home: { pattern: '/home', href: () => '/home' },
  /** `of`: a member of the downline whose own direct members the page lists (added; docs/API.md team). */
  team: { pattern: '/team', href: (of?: string) => (of ? `/team?of=${encodeURIComponent(of)}` : '/team') },
  teamSearch: { pattern: '/team/search', href: () => '/team/search' },
  me: { pattern: '/me', href: () => '/me' },
  wpos: { pattern: '/me/wpos', href: () => '/me/wpos' },
  wposProfit: { pattern: '/me/wpos/profit', href: () => '/me/wpos/profit' },
  solbotList: { pattern: '/me/solbot-list', href: () => '/me/solbot-list' },
  /** Added to the spec's routes: the member's credit records, filtered by type. */
  creditRecords: { pattern: '/me/credit-records', href: () => '/me/credit-records' },
  announcement: { pattern: '/me/announcement', href: () => '/me/announcement' },
  announcementDetail: {
    pattern: '/me/announcement/detail/:noticeId',
    href: (noticeId: string) => `/me/announcement/detail/${encodeURIComponent(noticeId)}`,
  },
  about: { pattern: '/me/about', href: () => '/me/about' },
  invitation: {
    pattern: '/me/invitation/:inviteCode?',
    href: (inviteCode?: string) => (inviteCode ? `/me/invitation/${encodeURIComponent(inviteCode)}` : '/me/invitation'),
  },
  buyList: { pattern: '/buy-list', href: () => '/buy-list' },
  settlement: { pattern: '/buy/settlement/:id?', href: (id?: string) => (id ? `/buy/settlement/${encodeURIComponent(id)}` : '/buy/settlement') },
  shippingAddress: { pattern: '/buy/shipping-address', href: () => '/buy/shipping-address' },
  shippingAddressAdd: { pattern: '/buy/shipping-address/add', href: () => '/buy/shipping-address/add' },
  shippingAddressEdit: {
    pattern: '/buy/shipping-address/edit/:deliveryId',
    href: (deliveryId: string) => `/buy/shipping-address/edit/${encodeURIComponent(deliveryId)}`,
  },
} as const;

export type PathName = keyof typeof paths;
