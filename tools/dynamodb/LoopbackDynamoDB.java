import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local listening on one address only (127.0.0.1 unless -Ddeckhand.host says otherwise).
 * Its own runner takes the same arguments but binds every interface, so anyone on the venue's
 * network could reach the database. Built by `make` when a JDK is present (docs/cli.md).
 */
public final class LoopbackDynamoDB {
    private LoopbackDynamoDB() {}

    public static void main(String[] args) throws Exception {
        String host = System.getProperty("deckhand.host", "127.0.0.1");
        DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
        Field field = DynamoDBProxyServer.class.getDeclaredField("server");
        field.setAccessible(true);
        Server server = (Server) field.get(proxy);
        for (Connector connector : server.getConnectors()) {
            ((ServerConnector) connector).setHost(host);
        }
        proxy.start();
    }
}
