import { useActor, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { copyMachine } from '../../machines/clipboard/copyMachine';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { selectUserInfo } from '../app/selectors';
import { Button } from '../components/Button';
import { Page } from '../components/Page';

const copyLogic = copyMachine.provide({
  actors: {
    writeClipboard: fromPromise<null, { text: string }>(async ({ input }) => {
      await navigator.clipboard.writeText(input.text);
      return null;
    }),
  },
});

/** /me/invitation/:inviteCode? — the member's own invite link and code, each copied with one tap. */
export function Component() {
  const { t } = useTranslation(['invitation', 'common']);
  const params = useParams();
  const { auth } = useRootActors();
  const userInfo = useSelector(auth, selectUserInfo);
  const [copy, send] = useActor(copyLogic);
  const ownCode = typeof userInfo?.inviteCode === 'string' ? userInfo.inviteCode : (params.inviteCode ?? '');
  const link = ownCode ? `${window.location.origin}${paths.login.href(ownCode)}` : '';
  const feedback = (id: string) => {
    if (copy.context.copiedId !== id) return null;
    if (copy.matches('copied')) return <span role="status">{t(id === 'link' ? 'invitation:inviteLink.copied' : 'invitation:inviteCode.copied')}</span>;
    if (copy.matches('failed')) return <span role="alert">{t('invitation:copyFailed')}</span>;
    return null;
  };

  return (
    <Page title={t('invitation:title')}>
      <p className="lead">{t('invitation:description')}</p>
      <div className="copy-row">
        <span className="field-label">{t('invitation:inviteLink.label')}</span>
        <code className="mono" data-testid="invite-link">
          {link || '—'}
        </code>
        <Button variant="secondary" disabled={!link} onClick={() => send({ type: 'user.copy', id: 'link', text: link })}>
          {t('invitation:inviteLink.copy')}
        </Button>
        {feedback('link')}
      </div>
      <div className="copy-row">
        <span className="field-label">{t('invitation:inviteCode.label')}</span>
        <code className="mono" data-testid="invite-code">
          {ownCode || '—'}
        </code>
        <Button variant="secondary" disabled={!ownCode} onClick={() => send({ type: 'user.copy', id: 'code', text: ownCode })}>
          {t('invitation:inviteCode.copy')}
        </Button>
        {feedback('code')}
      </div>
    </Page>
  );
}
