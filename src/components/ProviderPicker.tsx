import Button from 'antd-mobile/es/components/button';

interface ProviderPickerProps {
  providers: readonly { id: string; name: string; icon?: string }[];
  onChoose: (providerId: string) => void;
}

/** Several wallets announced themselves: one button per wallet, with the icon it announced. */
export function ProviderPicker({ providers, onChoose }: ProviderPickerProps) {
  return (
    <ul className="provider-list">
      {providers.map((provider) => (
        <li key={provider.id}>
          <Button block shape="rounded" onClick={() => onChoose(provider.id)}>
            <span className="provider-button">
              {provider.icon ? <img src={provider.icon} alt="" className="provider-icon" /> : null}
              {provider.name}
            </span>
          </Button>
        </li>
      ))}
    </ul>
  );
}
