import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { LinkOutline, UserAddOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { selectMember } from '../app/selectors';
import { CopyFeedback } from '../components/CopyFeedback';
import { InviteQr } from '../components/InviteQr';
import { Notice } from '../components/Notice';
import { Screen } from './shared/Screen';
import { useCopy } from './shared/useCopy';

/** /me/invitation/:inviteCode? — the member's own invite link and code, each copied with one tap. */
export function Component() {
  const { t } = useTranslation(['invitation', 'common']);
  const params = useParams();
  const { auth } = useRootActors();
  const member = useSelector(auth, selectMember);
  const { copy, feedback } = useCopy();
  const ownCode = member?.inviteCode ?? params.inviteCode ?? '';
  const link = ownCode ? `${window.location.origin}${paths.login.href(ownCode)}` : '';
  const canShare = typeof navigator.share === 'function';
  // Where sharing fails (not a cancel), the link is copied instead, with the copy's own feedback.
  const share = async () => {
    try {
      await navigator.share({ title: t('invitation:share.title'), text: t('invitation:share.text'), url: link });
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) copy('link', link);
    }
  };

  return (
    <Screen title={t('invitation:title')} parent={paths.me.href()}>
      <Notice icon={<UserAddOutline />}>{t('invitation:description')}</Notice>
      <section className="card invite-card" aria-labelledby="invite-code-label">
        <h2 id="invite-code-label" className="card-title">
          {t('invitation:inviteCode.label')}
        </h2>
        <p className="invite-code" data-testid="invite-code">
          {ownCode || '—'}
        </p>
        <Button block color="primary" shape="rounded" disabled={!ownCode} onClick={() => copy('code', ownCode)}>
          {t('invitation:inviteCode.copy')}
        </Button>
        <CopyFeedback feedback={feedback('code', t('invitation:inviteCode.copied'))} />
      </section>
      <section className="card invite-card" aria-labelledby="invite-link-label">
        <h2 id="invite-link-label" className="card-title">
          <LinkOutline aria-hidden="true" /> {t('invitation:inviteLink.label')}
        </h2>
        <code className="invite-link mono" data-testid="invite-link">
          {link || '—'}
        </code>
        <Button block fill="outline" color="primary" shape="rounded" disabled={!link} onClick={() => copy('link', link)}>
          {t('invitation:inviteLink.copy')}
        </Button>
        <CopyFeedback feedback={feedback('link', t('invitation:inviteLink.copied'))} />
      </section>
      {link ? (
        <section className="card invite-card" aria-labelledby="invite-qr-label">
          <h2 id="invite-qr-label" className="card-title">
            {t('invitation:qr.label')}
          </h2>
          <InviteQr text={link} label={t('invitation:qr.imageLabel')} />
          <p className="invite-qr-hint">{t('invitation:qr.hint')}</p>
          {canShare ? (
            <Button block color="primary" shape="rounded" onClick={() => void share()}>
              {t('invitation:share.action')}
            </Button>
          ) : null}
        </section>
      ) : null}
    </Screen>
  );
}
