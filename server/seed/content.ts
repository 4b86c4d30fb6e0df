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
