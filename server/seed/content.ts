/**
 * Seed data: what a fresh start shows. Fixed values, so every instance and every test sees the same screens.
 * README names /login/DEMO2026, the invite link of the seeded inviter.
 */
import type { AppConfig } from '../config/appConfig';

export const SEED_INVITER = {
  address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
  inviteCode: 'DEMO2026',
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
} as const;

export const SEED_APP_CONFIG: AppConfig = {
  chainId: 56,
  chain: {
    chainName: 'BNB Smart Chain',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: ['https://bsc-dataseed.bnbchain.org'],
    blockExplorerUrls: ['https://bscscan.com'],
  },
  minWithdraw: '10',
  maxWithdraw: '5000',
  withdrawFee: '1',
  dailyWithdrawCap: '10000',
  exchangeRate: '0.5',
  minTransfer: '1',
  siweStatement: 'Sign in to Member DApp',
};

/** An inline SVG as a data: URI, so seeded notices carry their images with them (the CSP allows data: images). */
function svgDataUri(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

function badge(label: string, fill: string): string {
  return svgDataUri(
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48"><rect width="160" height="48" rx="24" fill="${fill}"/>` +
      `<text x="80" y="31" font-family="sans-serif" font-size="18" fill="#fff" text-anchor="middle">${label}</text></svg>`,
  );
}

const RUNNING_BADGE = badge('RUNNING', '#00875a');
const PAUSED_BADGE = badge('PAUSED', '#b76e00');
const STOPPED_BADGE = badge('STOPPED', '#5e6c84');
const PROFIT_CHART = svgDataUri(
  '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="160" viewBox="0 0 320 160"><rect width="320" height="160" fill="#f4f5f7"/>' +
    '<polyline points="10,130 60,110 110,118 160,80 210,90 260,50 310,40" fill="none" stroke="#1677ff" stroke-width="4"/>' +
    '<line x1="10" y1="140" x2="310" y2="140" stroke="#97a0af"/></svg>',
);

/** The handbook: one long notice (headings, lists, a table, links) for the detail screen's scrolling. */
const MEMBER_HANDBOOK_EN = [
  '<h2>1. Signing in</h2>',
  '<p>Member DApp has no passwords. Open it in your wallet\'s browser, tap <strong>Connect wallet</strong> and sign the sign-in message. The message names this site, your address, the chain and a one-time code; signing it costs nothing and sends no transaction.</p>',
  '<ul><li>A sign-in lasts seven days on this device.</li><li>Switching accounts in the wallet signs you out here.</li><li>Signing out on one device leaves the others signed in.</li></ul>',
  '<h2>2. Invitations</h2>',
  '<p>Every member has an invite code and an invite link (<em>Me → Invite</em>). A new member who opens your link, or types your code at the first sign-in, joins your team as a direct member. The recommender is chosen once and never changes.</p>',
  '<h2>3. Your team</h2>',
  '<p>Your team is everyone below you: your direct members (level 1), their direct members (level 2), and so on. The <em>Team</em> tab lists them level by level; search finds anyone in your team by a piece of their address (at least four characters, 0x optional).</p>',
  '<table><thead><tr><th>Level</th><th>Who</th><th>Shown</th></tr></thead><tbody>',
  '<tr><td>1</td><td>Members who used your code</td><td>First</td></tr>',
  '<tr><td>2</td><td>Members who used a level-1 code</td><td>Next</td></tr>',
  '<tr><td>3+</td><td>Everyone further down</td><td>Then, level by level</td></tr>',
  '</tbody></table>',
  '<h2>4. Credit and WPOS</h2>',
  '<p>Credit and WPOS are kept in a ledger: every movement is recorded once, with the balance after it, under <em>Me → Records</em>. Flash exchange swaps one for the other at the rate shown before you confirm.</p>',
  '<ol><li>Check the amount and the rate.</li><li>Confirm once: a retry after a network error never moves the amount twice.</li><li>Find the result in your records.</li></ol>',
  '<h2>5. Withdrawals</h2>',
  '<p>Withdrawals have a minimum, a maximum, a fixed fee and a daily cap, shown on the withdrawal screen. A withdrawal is pending until an operator completes it; a failed one is refunded in full.</p>',
  '<h2>6. Staying safe</h2>',
  '<p>Nobody from the team will ever ask for your recovery phrase or private key. Only sign messages that name this site. If in doubt, read the <a href="https://ethereum.org/en/security/" target="_blank" rel="noopener noreferrer">Ethereum security guide</a> or write to <a href="mailto:support@example.com">support@example.com</a>.</p>',
  '<h2>7. Changes to these rules</h2>',
  '<p>Rules change only with an announcement here, dated before the change takes effect. Earlier announcements stay readable in the list.</p>',
].join('');

const MEMBER_HANDBOOK_ZH = [
  '<h2>1. 登录</h2>',
  '<p>Member DApp 不使用密码。在钱包内置浏览器中打开本站，点击<strong>连接钱包</strong>并签名登录消息即可。消息中包含本站域名、你的地址、链和一次性验证码；签名不产生任何费用，也不会发送交易。</p>',
  '<ul><li>每次登录在本设备上有效七天。</li><li>在钱包中切换账户会退出本站登录。</li><li>在一台设备上退出不影响其他设备。</li></ul>',
  '<h2>2. 邀请</h2>',
  '<p>每位会员都有邀请码和邀请链接（<em>我的 → 邀请</em>）。新会员通过你的链接打开本站，或在首次登录时填写你的邀请码，即成为你的直推会员。推荐人只能设置一次，之后不可更改。</p>',
  '<h2>3. 我的团队</h2>',
  '<p>团队包括你下面的所有人：直推会员（第 1 层）、他们的直推会员（第 2 层），依此类推。<em>团队</em>页按层级列出成员；搜索可按地址片段（至少四个字符，可带 0x）查找团队中的任何人。</p>',
  '<table><thead><tr><th>层级</th><th>成员</th><th>显示顺序</th></tr></thead><tbody>',
  '<tr><td>1</td><td>使用你邀请码的会员</td><td>最先</td></tr>',
  '<tr><td>2</td><td>使用第 1 层邀请码的会员</td><td>其次</td></tr>',
  '<tr><td>3+</td><td>更下层的所有人</td><td>逐层显示</td></tr>',
  '</tbody></table>',
  '<h2>4. 积分与 WPOS</h2>',
  '<p>积分与 WPOS 记在账本中：每笔变动只记录一次，并附变动后的余额，可在<em>我的 → 记录</em>中查看。闪兑按确认前显示的汇率互换。</p>',
  '<ol><li>核对金额和汇率。</li><li>只确认一次：网络出错后重试不会重复扣款。</li><li>在记录中查看结果。</li></ol>',
  '<h2>5. 提现</h2>',
  '<p>提现有单笔最低、单笔最高、固定手续费和每日上限，均显示在提现页面。提现在运营人员处理前为处理中；失败的提现会全额退回。</p>',
  '<h2>6. 安全</h2>',
  '<p>团队任何人都不会索要你的助记词或私钥。只签名包含本站域名的消息。如有疑问，请阅读<a href="https://ethereum.org/zh/security/" target="_blank" rel="noopener noreferrer">以太坊安全指南</a>或发邮件至 <a href="mailto:support@example.com">support@example.com</a>。</p>',
  '<h2>7. 规则变更</h2>',
  '<p>规则变更会提前在此发布公告，并注明生效日期。以往公告仍可在列表中查看。</p>',
].join('');

export interface SeedNotice {
  id: string;
  publishedAt: Date;
  zh: { title: string; summary: string; content: string };
  en: { title: string; summary: string; content: string };
}

export const SEED_NOTICES: SeedNotice[] = [
  {
    id: 'welcome',
    publishedAt: new Date('2026-01-01T08:00:00.000Z'),
    zh: {
      title: '欢迎加入 Member DApp',
      summary: '连接钱包、签名登录，即可开始使用。',
      content:
        '<h2>欢迎</h2><p>使用钱包内置浏览器打开本站，点击<strong>连接钱包</strong>并签名即可登录，无需密码。</p><ul><li>签名不会产生任何链上交易或费用。</li><li>首次登录请填写推荐人的邀请码。</li></ul>',
    },
    en: {
      title: 'Welcome to Member DApp',
      summary: 'Connect your wallet and sign in to get started.',
      content:
        '<h2>Welcome</h2><p>Open this site in your wallet\'s browser, tap <strong>Connect wallet</strong> and sign the message: no password needed.</p><ul><li>Signing never sends a transaction or costs gas.</li><li>On your first sign-in, enter your recommender\'s invite code.</li></ul>',
    },
  },
  {
    id: 'withdraw-rules',
    publishedAt: new Date('2026-03-15T08:00:00.000Z'),
    zh: {
      title: '积分提现规则',
      summary: '单笔最低 10、最高 5000，手续费 1，每日上限 10000。',
      content:
        '<h2>提现规则</h2><table><tr><th>项目</th><th>数值</th></tr><tr><td>单笔最低</td><td>10</td></tr><tr><td>单笔最高</td><td>5000</td></tr><tr><td>手续费</td><td>1</td></tr><tr><td>每日上限</td><td>10000</td></tr></table><p>提现申请通常在 24 小时内处理。</p>',
    },
    en: {
      title: 'Credit withdrawal rules',
      summary: 'Minimum 10, maximum 5000 per withdrawal, fee 1, daily cap 10000.',
      content:
        '<h2>Withdrawal rules</h2><table><tr><th>Item</th><th>Value</th></tr><tr><td>Minimum</td><td>10</td></tr><tr><td>Maximum</td><td>5000</td></tr><tr><td>Fee</td><td>1</td></tr><tr><td>Daily cap</td><td>10000</td></tr></table><p>Withdrawals are usually processed within 24 hours.</p>',
    },
  },
  {
    id: 'security-tips',
    publishedAt: new Date('2026-06-01T08:00:00.000Z'),
    zh: {
      title: '安全提示',
      summary: '官方人员不会索要助记词或私钥。',
      content:
        '<h2>保护好你的钱包</h2><p>任何人索要<em>助记词</em>或<em>私钥</em>都是诈骗。</p><ol><li>只在官方域名签名登录。</li><li>签名前核对消息中的域名。</li></ol>',
    },
    en: {
      title: 'Security tips',
      summary: 'Staff will never ask for your recovery phrase or private key.',
      content:
        '<h2>Keep your wallet safe</h2><p>Anyone asking for your <em>recovery phrase</em> or <em>private key</em> is a scammer.</p><ol><li>Only sign in on the official domain.</li><li>Check the domain in the message before you sign.</li></ol>',
    },
  },
  {
    id: 'wpos-exchange',
    publishedAt: new Date('2026-09-10T08:00:00.000Z'),
    zh: {
      title: 'WPOS 闪兑上线',
      summary: 'WPOS 与积分可按 0.5 的汇率即时互换。',
      content: '<h2>闪兑</h2><p>在“我的”页面进入<strong>闪兑</strong>，WPOS 与积分按当前汇率 <code>0.5</code> 即时兑换。</p>',
    },
    en: {
      title: 'WPOS flash exchange is live',
      summary: 'Swap WPOS and credit instantly at a rate of 0.5.',
      content: '<h2>Flash exchange</h2><p>Open <strong>Flash exchange</strong> under "Me" to swap WPOS and credit instantly at the current rate of <code>0.5</code>.</p>',
    },
  },
  {
    id: 'bots-launch',
    publishedAt: new Date('2026-10-01T08:00:00.000Z'),
    zh: {
      title: '量化机器人上线',
      summary: '在“我的 → 机器人”查看每个机器人的状态与收益率。',
      content:
        `<h2>机器人</h2><p>三种状态一目了然：</p><p><img src="${RUNNING_BADGE}" alt="运行中" width="160" height="48"> <img src="${PAUSED_BADGE}" alt="已暂停" width="160" height="48"> <img src="${STOPPED_BADGE}" alt="已停止" width="160" height="48"></p>` +
        `<p><img src="${PROFIT_CHART}" alt="近七日收益率走势" width="320" height="160"></p>` +
        '<p>收益率为历史数据，不代表未来收益。详见<a href="https://ethereum.org/zh/security/" target="_blank" rel="noopener noreferrer">以太坊安全指南</a>。</p>',
    },
    en: {
      title: 'Trading bots are live',
      summary: 'See each bot\'s status and profit rate under "Me → Bots".',
      content:
        `<h2>Bots</h2><p>Three states at a glance:</p><p><img src="${RUNNING_BADGE}" alt="Running" width="160" height="48"> <img src="${PAUSED_BADGE}" alt="Paused" width="160" height="48"> <img src="${STOPPED_BADGE}" alt="Stopped" width="160" height="48"></p>` +
        `<p><img src="${PROFIT_CHART}" alt="Profit rate over the last seven days" width="320" height="160"></p>` +
        '<p>Profit rates are past results, not a promise of future ones. Read the <a href="https://ethereum.org/en/security/" target="_blank" rel="noopener noreferrer">Ethereum security guide</a>.</p>',
    },
  },
  {
    id: 'member-handbook',
    publishedAt: new Date('2026-11-01T08:00:00.000Z'),
    zh: {
      title: '会员手册（完整版）',
      summary: '登录、邀请、团队、积分与 WPOS、提现和安全：一篇读懂全部规则。',
      content: MEMBER_HANDBOOK_ZH,
    },
    en: {
      title: 'Member handbook (full edition)',
      summary: 'Sign-in, invitations, your team, credit and WPOS, withdrawals and safety: every rule in one place.',
      content: MEMBER_HANDBOOK_EN,
    },
  },
];

export const SEED_ABOUT = {
  zh: {
    title: '关于我们',
    content:
      '<h2>Member DApp</h2><p>Member DApp 是一个面向钱包用户的会员应用：使用以太坊签名登录（EIP-4361），管理积分与 WPOS，邀请好友组建团队。</p><p>联系我们：<a href="mailto:support@example.com">support@example.com</a></p>',
  },
  en: {
    title: 'About us',
    content:
      '<h2>Member DApp</h2><p>Member DApp is a membership app for wallet users: sign in with Ethereum (EIP-4361), manage credit and WPOS, and invite friends to build your team.</p><p>Contact: <a href="mailto:support@example.com">support@example.com</a></p>',
  },
} as const;

export interface SeedBot {
  id: string;
  name: string;
  status: 'running' | 'paused' | 'stopped';
  /** Percent as a decimal string, signed. */
  profitRate: string;
  createdAt: Date;
}

/** Bots in every status, with a loss among them. */
export const SEED_BOTS: SeedBot[] = [
  { id: 'sol-grid-alpha', name: 'SOL Grid Alpha', status: 'running', profitRate: '12.5', createdAt: new Date('2026-10-01T08:00:00.000Z') },
  { id: 'sol-trend-beta', name: 'SOL Trend Beta', status: 'running', profitRate: '8.25', createdAt: new Date('2026-10-05T08:00:00.000Z') },
  { id: 'sol-dca-gamma', name: 'SOL DCA Gamma', status: 'paused', profitRate: '3.1', createdAt: new Date('2026-10-12T08:00:00.000Z') },
  { id: 'sol-arb-delta', name: 'SOL Arbitrage Delta', status: 'stopped', profitRate: '-2.4', createdAt: new Date('2026-09-20T08:00:00.000Z') },
  { id: 'sol-scalp-epsilon', name: 'SOL Scalper Epsilon', status: 'stopped', profitRate: '0', createdAt: new Date('2026-09-01T08:00:00.000Z') },
];

export interface SeedTeamMember {
  address: string;
  inviteCode: string;
  /** The invite code this member bound with. */
  recommenderCode: string;
  createdAt: Date;
}

/**
 * A small downline under the seeded inviter (three levels, six members), so the team screens and their tests have
 * something to show. Fixed addresses (nobody holds their keys), bound in this order.
 */
export const SEED_TEAM: SeedTeamMember[] = [
  { address: '0xd56eAB5E43ad8E33F5f3dF2296B7fBCd513165bB', inviteCode: 'DEMOTM01', recommenderCode: 'DEMO2026', createdAt: new Date('2026-02-01T08:00:00.000Z') },
  { address: '0x460f57234d55BfDAfac564f67C76c93E066708F3', inviteCode: 'DEMOTM02', recommenderCode: 'DEMO2026', createdAt: new Date('2026-02-03T08:00:00.000Z') },
  { address: '0x60fdb68616b3ec002Bf40Dc9ec23Fd5b5b7Cd632', inviteCode: 'DEMOTM03', recommenderCode: 'DEMOTM01', createdAt: new Date('2026-03-01T08:00:00.000Z') },
  { address: '0x08214B233bB812d16D09ee422041a4469101d58d', inviteCode: 'DEMOTM04', recommenderCode: 'DEMOTM01', createdAt: new Date('2026-03-08T08:00:00.000Z') },
  { address: '0x283e9A3d5DB69c307781948B6d6301B19543e94B', inviteCode: 'DEMOTM05', recommenderCode: 'DEMOTM02', createdAt: new Date('2026-03-15T08:00:00.000Z') },
  { address: '0x05aFf3EB4641343B9f7f6fBf98Be84847E6b6e0C', inviteCode: 'DEMOTM06', recommenderCode: 'DEMOTM03', createdAt: new Date('2026-04-01T08:00:00.000Z') },
];

/** A seeded share pool (docs/API.md "WPOS"): its daily amount and minimum holding in WPOS, as decimal strings. */
export interface SeedSharePool {
  id: number;
  name: string;
  totalAmount: string;
  minHolding: string;
}

/** Three tiers; the lowest asks at most 1 WPOS, so a new member's first WPOS already earns a share. */
export const SEED_SHARE_POOLS: SeedSharePool[] = [
  { id: 1, name: 'Starter', totalAmount: '100', minHolding: '1' },
  { id: 2, name: 'Silver', totalAmount: '500', minHolding: '100' },
  { id: 3, name: 'Gold', totalAmount: '2000', minHolding: '1000' },
];

export interface SeedGoods {
  id: string;
  nameZh: string;
  nameEn: string;
  /** A file of server/media/goods/, served at /media/goods/<file>. */
  image: string;
  price: string;
  stock: number;
}

/** The seeded goods, in list order; one has a single unit left, for the sold-out journey. */
export const SEED_GOODS: SeedGoods[] = [
  { id: 'longjing-tea', nameZh: '西湖龙井 250 克', nameEn: 'West Lake Longjing tea, 250 g', image: '/media/goods/longjing-tea.svg', price: '88', stock: 500 },
  { id: 'wildflower-honey', nameZh: '百花蜂蜜 500 克', nameEn: 'Wildflower honey, 500 g', image: '/media/goods/honey.svg', price: '45.5', stock: 200 },
  { id: 'yunnan-coffee', nameZh: '云南小粒咖啡豆 1 千克', nameEn: 'Yunnan coffee beans, 1 kg', image: '/media/goods/coffee-beans.svg', price: '120', stock: 80 },
  { id: 'member-notebook', nameZh: '会员笔记本', nameEn: 'Member notebook', image: '/media/goods/notebook.svg', price: '19.9', stock: 1000 },
  { id: 'jade-mug', nameZh: '青瓷马克杯（限量）', nameEn: 'Celadon mug (limited)', image: '/media/goods/jade-mug.svg', price: '66', stock: 1 },
];
